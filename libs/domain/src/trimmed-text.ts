/**
 * Blank at a text's ends: whitespace, and the characters that show nothing (zero-width space,
 * non-joiner and joiner, word joiner, soft hyphen). Inside a text they may mean something (a joiner
 * in Persian or in an emoji); at its ends they join nothing, and a text made only of them reads as
 * empty while it would be stored as a name nobody can see.
 */
const BLANK_ENDS = /^[\s\u00AD\u200B-\u200D\u2060]+|[\s\u00AD\u200B-\u200D\u2060]+$/g;

/**
 * A person's text as the service keeps it: composed (Unicode NFC), so `é` typed as one character or
 * as `e` and a combining accent is one text, compared and stored alike, and without blank ends.
 */
export function trimText(text: string): string {
  return text.normalize('NFC').replace(BLANK_ENDS, '');
}
