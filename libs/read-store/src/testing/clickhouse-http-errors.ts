/**
 * How a ClickHouse server reports an exception over HTTP: a non-2xx status chosen from the error
 * code, the `X-ClickHouse-Exception-Code` header, and a body `Code: N. DB::Exception: ... (NAME)
 * (version V)`. The status table follows the server's exceptionCodeToHTTPStatus.cpp.
 */

const BAD_REQUEST_CODES = [6, 8, 15, 25, 26, 27, 36, 37, 38, 41, 44, 53, 72, 117, 123, 167, 168, 223, 321, 376, 427, 441, 675, 676, 62];
const NOT_FOUND_CODES = [46, 47, 50, 56, 60, 63, 73, 78, 81, 115, 152, 336, 511];

const STATUS_BY_CODE = new Map<number, number>([
  ...BAD_REQUEST_CODES.map((code): [number, number] => [code, 400]),
  ...NOT_FOUND_CODES.map((code): [number, number] => [code, 404]),
  [194, 401], // REQUIRED_PASSWORD
  [192, 403], // UNKNOWN_USER
  [193, 403], // WRONG_PASSWORD
  [497, 403], // ACCESS_DENIED
  [512, 403], // SET_NON_GRANTED_ROLE
  [516, 403], // AUTHENTICATION_FAILED
  [229, 413], // QUERY_IS_TOO_LARGE
  [48, 501], // NOT_IMPLEMENTED
  [76, 503], // CANNOT_OPEN_FILE
  [209, 503], // SOCKET_TIMEOUT
  [439, 503], // CANNOT_SCHEDULE_TASK
  [381, 411], // HTTP_LENGTH_REQUIRED
  [159, 408], // TIMEOUT_EXCEEDED
  [779, 415], // UNSUPPORTED_MEDIA_TYPE
]);

export const ErrorCode = {
  SYNTAX_ERROR: 62,
  NOT_IMPLEMENTED: 48,
  UNKNOWN_SETTING: 115,
  BAD_QUERY_PARAMETER: 457,
  AUTHENTICATION_FAILED: 516,
  UNKNOWN_EXCEPTION: 1002,
} as const;

export interface HttpError {
  status: number;
  code: number;
  body: string;
}

export function httpStatusForCode(code: number): number {
  return STATUS_BY_CODE.get(code) ?? 500;
}

/** An exception raised by chDB ("Query failed: Code: 62. DB::Exception: ... (SYNTAX_ERROR)"). */
export function httpErrorFromEngine(error: unknown, version: string): HttpError {
  const message = (error instanceof Error ? error.message : String(error)).replace(/^Query failed:\s*/, '').trim();
  const codeMatch = /Code: (\d+)\./.exec(message);
  if (codeMatch === null) return httpError(ErrorCode.UNKNOWN_EXCEPTION, 'UNKNOWN_EXCEPTION', message, version);
  const code = Number(codeMatch[1]);
  return { status: httpStatusForCode(code), code, body: `${message} (version ${version})\n` };
}

/** An exception raised by the test server itself, worded the way the server words its own. */
export function httpError(code: number, name: string, message: string, version: string): HttpError {
  return {
    status: httpStatusForCode(code),
    code,
    body: `Code: ${code}. DB::Exception: ${message}. (${name}) (version ${version})\n`,
  };
}
