/**
 * Well-formed text: what every string a client or an operator sends must be before anything stores
 * it. A lone UTF-16 surrogate (`"\ud800"` in JSON) cannot be written to ClickHouse, and control
 * characters break exports and terminals. Tab is allowed everywhere; a line break (line feed, or
 * Unicode's line and paragraph separators) only where the caller allows it (note text, a project's
 * `aliases`). Bidirectional embeddings, overrides and isolates are refused everywhere: they make a
 * name read differently from what it is (a project or key name shown reversed). So are
 * noncharacters (U+FFFE, U+FFFF, …), which are not for interchange. The check walks the whole value,
 * keys included, and names the first offending field. The API applies it in a pipe and a hook
 * (apps/api/src/platform/http), the operator CLI to its arguments.
 */

// C0 controls but tab (\x09) and line feed (\x0A), DEL, and the C1 controls.
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
// U+202A-U+202E (embeddings, overrides) and U+2066-U+2069 (isolates); the plain marks LRM and RLM stay.
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
const NONCHARACTER = /\p{Noncharacter_Code_Point}/u;
const LINE_BREAK = /[\n\u2028\u2029]/;
const MAX_DEPTH = 64;

/** Why a string is not acceptable, or null. */
function problemOf(text: string, multiline: boolean): string | null {
  if (!text.isWellFormed()) return 'must be well-formed text (it contains a lone UTF-16 surrogate)';
  if (CONTROL.test(text)) return 'must not contain control characters';
  if (BIDI_CONTROL.test(text)) return 'must not contain bidirectional control characters (U+202A-U+202E, U+2066-U+2069)';
  if (NONCHARACTER.test(text)) return 'must not contain Unicode noncharacters (such as U+FFFE and U+FFFF)';
  if (!multiline && LINE_BREAK.test(text)) return 'must be a single line (line breaks are allowed only in note text and aliases)';
  return null;
}

/**
 * The first ill-formed string in `value` as a message naming its field (`keywords.2 must …`), or null.
 * `multiline` names the top-level fields allowed to hold line breaks.
 */
export function findIllFormedText(value: unknown, path: string, multiline: ReadonlySet<string> = new Set()): string | null {
  const visit = (current: unknown, at: string, depth: number, allowLines: boolean): string | null => {
    if (typeof current === 'string') {
      const problem = problemOf(current, allowLines);
      return problem && `${at || 'the request body'} ${problem}`;
    }
    if (current === null || typeof current !== 'object') return null;
    if (depth > MAX_DEPTH) return `${at || 'the request body'} is nested too deeply`;
    for (const [key, inner] of Object.entries(current)) {
      const keyProblem = problemOf(key, false);
      if (keyProblem) return `a field name in ${at || 'the request body'} ${keyProblem}`;
      const innerPath = at ? `${at}.${key}` : key;
      const found = visit(inner, innerPath, depth + 1, depth === 0 && multiline.has(key));
      if (found) return found;
    }
    return null;
  };
  return visit(value, path, 0, false);
}
