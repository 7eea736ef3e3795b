/**
 * Text that Markdown shows as typed: inline markup characters escaped, line breaks flattened. `&` is
 * escaped too, or a keyword `r&amp;d` would show as `r&d` (an entity reference).
 */
export function mdText(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').replace(/[\\`*_[\]<>|~#&]/g, (c) => `\\${c}`);
}

/** A URL as an autolink when it can be one (no spaces, angle brackets or pipes), else as plain text. */
export function mdUrl(url: string): string {
  if (url === '') return '–';
  return /^https?:\/\/[^\s<>|`]+$/.test(url) ? `<${url}>` : mdText(url);
}

export function mdTable(header: readonly string[], align: readonly ('left' | 'right')[]): string {
  return `| ${header.join(' | ')} |\n|${align.map((a) => (a === 'right' ? '---:' : '---')).join('|')}|\n`;
}

export const mdRow = (cells: readonly string[]) => `| ${cells.join(' | ')} |\n`;

/** A change of places with its sign, `+4`, `-2`, `0`; `–` when there is none. */
export const mdChange = (change: number | null) => (change === null ? '–' : change > 0 ? `+${change}` : String(change));
