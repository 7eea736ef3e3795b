/** A keyword as the service stores it: trimmed, inner whitespace collapsed, lowercased. */
export function normaliseKeyword(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLocaleLowerCase('en');
}
