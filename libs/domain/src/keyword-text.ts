import { characterCount } from './text-length';
import { trimText } from './trimmed-text';
import { findIllFormedText } from './well-formed-text';

/** As long as a tracked keyword may be, in characters (code points). */
export const MAX_KEYWORD_LENGTH = 200;

/** A keyword as the service stores it: composed (NFC), trimmed, inner whitespace collapsed, lowercased. */
export function normaliseKeyword(text: string): string {
  // Lowercased before it is composed: composing once covers both.
  return trimText(text.toLocaleLowerCase('en')).replace(/\s+/g, ' ');
}

/**
 * Whether a normalised keyword is one the service would track: not empty, at most MAX_KEYWORD_LENGTH
 * characters, well-formed text on one line. Text from outside (a model, autocomplete) that is not is
 * never offered as a keyword: the user could not add it.
 */
export function isTrackableKeyword(keyword: string): boolean {
  return keyword !== '' && characterCount(keyword) <= MAX_KEYWORD_LENGTH && findIllFormedText(keyword, 'keyword') === null;
}
