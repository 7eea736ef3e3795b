import type { QueryParams } from './read-store.port';

/**
 * JavaScript values that the two transports would otherwise encode differently, rewritten into one
 * text both engines parse the same way.
 *
 * - Date: @clickhouse/client sends a Date parameter as a unix timestamp with milliseconds, while
 *   chDB's binder sends 'YYYY-MM-DD hh:mm:ss' and drops the milliseconds. In a JSON row a Date
 *   becomes ISO 8601 text, which a server (date_time_input_format=basic) rejects. A unix timestamp
 *   in text is zone-independent and accepted by DateTime and DateTime64 columns and parameters.
 * - bigint: JSON.stringify throws on it; 64-bit columns accept the decimal digits as a string.
 */
export function toUnixTimestampText(date: Date): string {
  const millis = date.getTime();
  if (Number.isNaN(millis)) throw new Error('Cannot send an invalid Date to ClickHouse');
  const seconds = Math.floor(millis / 1000);
  const fraction = millis - seconds * 1000;
  return fraction === 0 ? String(seconds) : `${seconds}.${String(fraction).padStart(3, '0')}`;
}

function toPortableValue(value: unknown): unknown {
  if (value instanceof Date) return toUnixTimestampText(value);
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(toPortableValue);
  return value;
}

export function toPortableParams(params: QueryParams | undefined): QueryParams | undefined {
  if (params === undefined) return undefined;
  const portable: QueryParams = {};
  for (const [name, value] of Object.entries(params)) {
    // bigint parameters are already encoded exactly by both transports.
    portable[name] = typeof value === 'bigint' ? value : toPortableValue(value);
  }
  return portable;
}

export function toPortableRow(row: Record<string, unknown>): Record<string, unknown> {
  const portable: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) portable[column] = toPortableValue(value);
  return portable;
}

export function toPortableValueForRow(value: unknown): unknown {
  return typeof value === 'object' || typeof value === 'bigint' ? toPortableValue(value) : value;
}

/**
 * The body of `INSERT INTO t (columns) FORMAT JSONCompactEachRow`: one JSON array per row, in the
 * column order of the first row. About half the CPU of JSONEachRow objects (no key per value, no
 * copy of each row) on both sides, which is what replay speed is made of. Returns undefined when the
 * rows do not all have the same columns, so the caller writes them as objects instead: a row's
 * column must never be dropped or misplaced for speed.
 */
export function toCompactInsert(rows: readonly Record<string, unknown>[]): { columns: string[]; body: string } | undefined {
  const columns = Object.keys(rows[0] ?? {});
  const index = new Map(columns.map((column, i) => [column, i]));
  const lines: string[] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const values: unknown[] = new Array(columns.length);
    let seen = 0;
    for (const column in row) {
      const at = index.get(column);
      if (at === undefined) return undefined;
      values[at] = toPortableValueForRow(row[column]);
      seen++;
    }
    if (seen !== columns.length) return undefined;
    lines[r] = JSON.stringify(values);
  }
  return { columns, body: lines.join('\n') };
}
