import { KeywordDataError } from '@rank/providers/keyword-data/keyword-data-error';

/** The call's answer, or a `timeout` KeywordDataError once `ms` have passed (the call itself is left to finish on its own). */
export async function withTimeout<T>(call: Promise<T>, ms: number, provider: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new KeywordDataError(provider, 'timeout', `no answer within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
