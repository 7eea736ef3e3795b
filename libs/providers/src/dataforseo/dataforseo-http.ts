import { fetchJson } from '../shared/fetch-json';
import { asArray, asNumber, asObject } from '../shared/json-shape';
import { withRetry, type RetryPolicy } from '../shared/retry';
import { KeywordDataError } from '../keyword-data/keyword-data-error';

export const DATAFORSEO = 'dataforseo';
/** DataForSEO's "Ok." status code, for the whole answer and for each task. */
export const DATAFORSEO_OK = 20000;
/** A task's "No Search Results.": the search engine found nothing for it, an answer and not a failure. */
const DATAFORSEO_NO_RESULTS = 40102;
/**
 * The result of a task the search engine found nothing for (40102): empty, as no data is, and this
 * very list, so that a SERP read can tell it from an answer that lacks its result.
 */
export const NO_SEARCH_RESULTS: unknown[] = Object.freeze([]) as unknown as unknown[];
/** A task's "Internal SE Server Error.": the search engine failed (after DataForSEO's own retries), which passes. */
const DATAFORSEO_ENGINE_ERROR = 40101;

export interface DataForSeoAccess {
  login: string;
  password: string;
  /** Origin of the API, e.g. https://api.dataforseo.com. */
  baseUrl: string;
}

/**
 * DataForSEO's v3 envelope, common to all its APIs: a POST of an array of tasks, HTTP Basic with
 * the API login and password; the answer carries a `status_code` for the call and one per task in
 * `tasks[]`, each task's data in `result`. Live endpoints take one task a call.
 */
export class DataForSeoHttp {
  private readonly authorization: string;
  /**
   * The password, alone and in the Basic credentials an error answer may quote back. Not the login:
   * an e-mail address, no secret, and one a result page may show (an agency tracking its own name).
   */
  private readonly secrets: readonly string[];

  constructor(
    private readonly access: DataForSeoAccess,
    private readonly retry: RetryPolicy,
  ) {
    const credentials = Buffer.from(`${access.login}:${access.password}`).toString('base64');
    this.authorization = `Basic ${credentials}`;
    this.secrets = [credentials, access.password];
  }

  /**
   * Posts one live task and answers its `result` (an empty list when the task found nothing).
   * `signal`: the caller stopped waiting; the try in flight is cut off and no retry starts.
   */
  async postLiveTask(path: string, task: Record<string, unknown>, signal?: AbortSignal): Promise<unknown[]> {
    return withRetry(
      this.retry,
      async (timeoutMs) => {
        let response;
        try {
          response = await fetchJson({
            provider: DATAFORSEO,
            method: 'POST',
            url: new URL(`${this.access.baseUrl}${path}`),
            body: [task],
            headers: { authorization: this.authorization },
            timeoutMs,
            signal,
            secrets: this.secrets,
          });
        } catch (error) {
          throw KeywordDataError.from(error, DATAFORSEO);
        }
        return taskResult(path, response.status, response.body);
      },
      signal,
    );
  }
}

/**
 * DataForSEO status codes are five digits whose first three mirror HTTP (40100 unauthorised,
 * 40501 invalid field, 50301 too many requests); the HTTP-like part decides whether a retry helps.
 * 40101 is the search engine's own failure, not a refusal of ours: a server error (502).
 */
function failure(path: string, httpStatus: number, statusCode: number | undefined, message: unknown): KeywordDataError {
  const status =
    statusCode === DATAFORSEO_ENGINE_ERROR
      ? 502
      : statusCode !== undefined && statusCode >= 10000
        ? Math.floor(statusCode / 100)
        : httpStatus >= 400
          ? httpStatus
          : 500;
  const text = typeof message === 'string' ? message.slice(0, 200) : 'no status message';
  return new KeywordDataError(DATAFORSEO, 'http', `${path} answered ${statusCode ?? httpStatus}: ${text}`, status);
}

function taskResult(path: string, httpStatus: number, body: unknown): unknown[] {
  const envelope = asObject(body);
  const statusCode = asNumber(envelope?.status_code);
  if (httpStatus >= 400) throw failure(path, httpStatus, statusCode, envelope?.status_message);
  if (!envelope || statusCode === undefined) throw new KeywordDataError(DATAFORSEO, 'malformed', `${path} answered without a status_code`);
  if (statusCode !== DATAFORSEO_OK) throw failure(path, httpStatus, statusCode, envelope.status_message);
  const task = asObject(asArray(envelope.tasks)?.[0]);
  if (!task) throw new KeywordDataError(DATAFORSEO, 'malformed', `${path} answered without a task`);
  const taskStatus = asNumber(task.status_code);
  if (taskStatus === undefined) throw new KeywordDataError(DATAFORSEO, 'malformed', `${path} answered a task without a status_code`);
  if (taskStatus === DATAFORSEO_NO_RESULTS) return NO_SEARCH_RESULTS;
  if (taskStatus !== DATAFORSEO_OK) throw failure(path, httpStatus, taskStatus, task.status_message);
  if (task.result === null || task.result === undefined) return [];
  const result = asArray(task.result);
  if (!result) throw new KeywordDataError(DATAFORSEO, 'malformed', `${path} answered a result that is not a list`);
  return result;
}
