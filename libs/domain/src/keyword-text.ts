import { trimText } from './trimmed-text';

/** A keyword as the service stores it: composed (NFC), trimmed, inner whitespace collapsed, lowercased. */
export function normaliseKeyword(text: string): string {
  // Lowercased before it is composed: composing once covers both.
  return trimText(text.toLocaleLowerCase('en')).replace(/\s+/g, ' ');
}
