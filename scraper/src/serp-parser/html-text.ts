import type { Cheerio } from 'cheerio';
import type { AnyNode } from 'domhandler';

/** The visible text of a selection on one line: whitespace (incl. non-breaking spaces) collapsed. */
export function textOf(selection: Cheerio<AnyNode>): string {
  return collapseWhitespace(selection.text());
}

export function collapseWhitespace(text: string): string {
  return text.replace(/[\s\u00a0\u200b]+/g, ' ').trim();
}
