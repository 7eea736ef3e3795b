/** Visible text on one line: whitespace (incl. non-breaking and zero-width spaces) collapsed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/[\s\u00a0\u200b]+/g, ' ').trim();
}
