/**
 * Which insert failures no retry can mend. ClickHouse answers a row it cannot take (a lone surrogate,
 * a value of the wrong type, a value too large) with an error of a known type; such a row fails the
 * same way forever and must be set aside. Anything else (the server unreachable, a timeout, too many
 * queries) may pass, so it is retried and never set aside.
 */
const PERMANENT_TYPES =
  /^(CANNOT_PARSE|CANNOT_READ|CANNOT_CONVERT|TYPE_MISMATCH|ILLEGAL_|INCORRECT_DATA|INCORRECT_NUMBER_OF_COLUMNS|TOO_LARGE|VALUE_IS_OUT_OF_RANGE|ARGUMENT_OUT_OF_BOUND|SIZES_OF_|UNEXPECTED_END_OF_FILE|ATTEMPT_TO_READ_AFTER_EOF|DECIMAL_OVERFLOW|NO_SUCH_COLUMN_IN_TABLE|THERE_IS_NO_COLUMN)/;

export function isPermanentWriteError(error: unknown): boolean {
  const type = (error as { type?: unknown } | null)?.type;
  return typeof type === 'string' && PERMANENT_TYPES.test(type);
}
