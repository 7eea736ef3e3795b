/**
 * How many characters a text has, as a person counts them: code points, so an emoji or a CJK
 * extension character is one, where `String.length` counts the two UTF-16 units it is stored in.
 * The spec's limits ("at most 100 characters") are in these, as class-validator's length checks
 * on the request bodies already count them.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
