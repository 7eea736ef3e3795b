/**
 * The CSV dialect of the exports: UTF-8 with a byte-order mark (so that Excel reads the keywords'
 * accents right), `;` between fields (the separator Excel expects in most European locales, where
 * `,` is the decimal mark), CRLF line ends (RFC 4180).
 */
export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ';';
export const CSV_LINE_END = '\r\n';

/** A field as RFC 4180 wants it: quoted, inner quotes doubled, when it holds a separator, a quote or a line break. */
export function csvField(value: string): string {
  return /[;"\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A field of free text (keywords, URLs) that a spreadsheet must not run as a formula: text starting
 * with = + - @ (or a tab or CR) is prefixed with an apostrophe (OWASP "CSV injection"). Keywords are
 * user input and result URLs come from Google, so either could carry one.
 */
export function csvTextField(value: string): string {
  const printable = withoutControlCharacters(value);
  return csvField(/^[=+\-@\t\r]/.test(printable) ? `'${printable}` : printable);
}

/**
 * Control characters (a NUL in an old keyword, say) become spaces, so no cell carries one; tab, line
 * feed and carriage return stay, quoted by csvField. Input is refused with them today, but events
 * written before that check, or by another writer, may hold them.
 */
const withoutControlCharacters = (value: string) => value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, ' ');

/** One line; the fields are already encoded with csvField or csvTextField. */
export const csvLine = (fields: readonly string[]) => fields.join(CSV_SEPARATOR) + CSV_LINE_END;
