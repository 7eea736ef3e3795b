/** What to ask a language model for keywords. */
export interface KeywordPrompt {
  /** The instructions: who the model is and the rules of the answer. Optional. */
  system?: string;
  /** The request itself: the site, its pages, its tracked keywords, the market. */
  user: string;
}

/**
 * Keywords from a language model (any OpenAI-compatible chat/completions server). Answers the
 * model's keywords, trimmed, without empties or repeats, in the model's order. Throws a
 * KeywordDataError (`unavailable` when unreachable or slow, `upstream_error` on an error answer
 * or an answer that is not `{"keywords": [string]}`).
 */
export interface KeywordLlm {
  /** The model's name, for logs and `meta`. */
  readonly model: string;
  /** `signal` aborts the call, its retries included, once the caller no longer waits for it. */
  keywordsFor(prompt: KeywordPrompt, signal?: AbortSignal): Promise<string[]>;
}
