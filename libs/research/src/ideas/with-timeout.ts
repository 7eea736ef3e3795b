import { KeywordDataError } from '@rank/providers/keyword-data/keyword-data-error';

/**
 * The call's answer, or a `timeout` KeywordDataError once `ms` have passed. The call gets a signal
 * that aborts at that moment: a provider that takes it cuts its upstream request off and starts no
 * retry, so nothing runs on (and is paid for) after the caller has had its answer.
 */
export async function withTimeout<T>(call: (signal: AbortSignal) => Promise<T>, ms: number, provider: string): Promise<T> {
  const cancel = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Rejected before the abort, so the race ends with the timeout and not the cut-off call's error.
      reject(new KeywordDataError(provider, 'timeout', `no answer within ${ms / 1000} s`));
      cancel.abort();
    }, ms);
  });
  try {
    return await Promise.race([call(cancel.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
