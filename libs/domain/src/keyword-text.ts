import { trimText } from './trimmed-text';

/** A keyword as the service stores it: composed (NFC), trimmed, inner whitespace collapsed, lowercased. */
export function normaliseKeyword(text: string): string {
  return trimText(text).replace(/\s+/g, ' ').toLocaleLowerCase('en').normalize('NFC');
}
