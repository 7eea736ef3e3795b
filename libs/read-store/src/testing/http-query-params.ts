/**
 * Turns `param_<name>` values of ClickHouse's HTTP interface back into the JavaScript values chDB's
 * binder expects, so the test server binds exactly what a server would.
 *
 * Over HTTP a parameter arrives as text in ClickHouse's "escaped" form (what @clickhouse/client's
 * formatQueryParams writes). chDB's binder takes JavaScript values and escapes them again itself,
 * so the text has to be decoded first: scalars are unescaped, and composite values (arrays,
 * tuples, maps), which the engine parses as literals, are parsed into arrays, tuples and Maps.
 */

const PLACEHOLDER = /\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^{}]+?)\s*\}/g;
const COMPOSITE_TYPE = /^(Array|Tuple|Map|Nested)\s*\(/;
const WRAPPER_TYPE = /^(Nullable|LowCardinality)\s*\((.*)\)$/s;

/** chDB's binder recognises a tuple by this class name and its `values` (the same shape as @clickhouse/client's). */
export class TupleParam {
  constructor(readonly values: unknown[]) {}
}

/** `{name:Type}` placeholders of a statement, by name. */
export function declaredParamTypes(sql: string): Map<string, string> {
  const types = new Map<string, string>();
  for (const match of sql.matchAll(PLACEHOLDER)) types.set(match[1], match[2]);
  return types;
}

export function decodeHttpParam(text: string, declaredType: string | undefined): unknown {
  if (text === '\\N') return null;
  if (declaredType !== undefined && COMPOSITE_TYPE.test(unwrapType(declaredType))) {
    return new LiteralParser(text).parseWhole();
  }
  return unescapeText(text);
}

function unwrapType(type: string): string {
  const wrapped = WRAPPER_TYPE.exec(type.trim());
  return wrapped === null ? type.trim() : unwrapType(wrapped[2]);
}

const ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', '0': '\0', a: '\x07', v: '\v', e: '\x1b' };

/** ClickHouse's escaped-text rules: `\` + letter for control characters, `\xHH`, otherwise the next character itself. */
function unescapeText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char !== '\\' || i + 1 === text.length) {
      out += char;
      continue;
    }
    const next = text[++i];
    if (next === 'x' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      out += String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      out += ESCAPES[next] ?? next;
    }
  }
  return out;
}

/** A parser for the literal syntax of composite values: [..], (..), {k:v}, '..', numbers, NULL, true/false. */
class LiteralParser {
  #pos = 0;

  constructor(private readonly text: string) {}

  parseWhole(): unknown {
    const value = this.#value();
    this.#skipSpace();
    if (this.#pos !== this.text.length) this.#fail('unexpected text after the value');
    return value;
  }

  #value(): unknown {
    this.#skipSpace();
    const char = this.text[this.#pos];
    if (char === '[') return this.#sequence('[', ']');
    if (char === '(') return new TupleParam(this.#sequence('(', ')'));
    if (char === '{') return this.#map();
    if (char === "'") return this.#quoted();
    return this.#bareWord();
  }

  #sequence(open: string, close: string): unknown[] {
    this.#expect(open);
    const items: unknown[] = [];
    this.#skipSpace();
    if (this.text[this.#pos] === close) {
      this.#pos++;
      return items;
    }
    for (;;) {
      items.push(this.#value());
      this.#skipSpace();
      if (this.text[this.#pos] === close) {
        this.#pos++;
        return items;
      }
      this.#expect(',');
    }
  }

  #map(): Map<unknown, unknown> {
    this.#expect('{');
    const map = new Map<unknown, unknown>();
    this.#skipSpace();
    if (this.text[this.#pos] === '}') {
      this.#pos++;
      return map;
    }
    for (;;) {
      const key = this.#value();
      this.#skipSpace();
      this.#expect(':');
      map.set(key, this.#value());
      this.#skipSpace();
      if (this.text[this.#pos] === '}') {
        this.#pos++;
        return map;
      }
      this.#expect(',');
    }
  }

  #quoted(): string {
    this.#expect("'");
    let raw = '';
    while (this.#pos < this.text.length) {
      const char = this.text[this.#pos++];
      if (char === '\\') {
        raw += char + (this.text[this.#pos++] ?? '');
      } else if (char === "'") {
        if (this.text[this.#pos] !== "'") return unescapeText(raw);
        raw += "'";
        this.#pos++;
      } else {
        raw += char;
      }
    }
    return this.#fail('unterminated string');
  }

  #bareWord(): unknown {
    const match = /^[^\s,:\])}]+/.exec(this.text.slice(this.#pos));
    if (match === null) return this.#fail('expected a value');
    this.#pos += match[0].length;
    const word = match[0];
    if (/^null$/i.test(word)) return null;
    if (/^true$/i.test(word)) return true;
    if (/^false$/i.test(word)) return false;
    // Integers stay exact (chDB's binder refuses unsafe JavaScript numbers).
    if (/^[+-]?\d+$/.test(word)) return BigInt(word);
    const number = Number(word);
    if (Number.isFinite(number)) return number;
    return this.#fail(`cannot bind ${JSON.stringify(word)}`);
  }

  #skipSpace(): void {
    while (this.#pos < this.text.length && /\s/.test(this.text[this.#pos])) this.#pos++;
  }

  #expect(char: string): void {
    this.#skipSpace();
    if (this.text[this.#pos] !== char) this.#fail(`expected ${JSON.stringify(char)}`);
    this.#pos++;
  }

  #fail(reason: string): never {
    throw new Error(`Cannot parse query parameter value ${JSON.stringify(this.text)} at ${this.#pos}: ${reason}`);
  }
}
