/**
 * ClickHouse cannot bind a table name everywhere a value can be bound (INSERT INTO, USE), so names
 * that reach SQL text are restricted to plain identifiers instead: nothing that could close a quote
 * or start a second statement gets through.
 */
const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function assertSqlIdentifier(name: string, what: string): string {
  if (!PLAIN_IDENTIFIER.test(name)) {
    throw new Error(`Invalid ${what} name ${JSON.stringify(name)}: use letters, digits and _ only, not starting with a digit`);
  }
  return name;
}
