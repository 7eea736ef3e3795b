import { fetchJson, upstreamMessage } from '../shared/fetch-json';
import { asArray, asObject } from '../shared/json-shape';
import { withRetry, type RetryPolicy } from '../shared/retry';
import { KeywordDataError } from '../keyword-data/keyword-data-error';
import type { LlmConfig } from '../keyword-data/keyword-data-config';
import type { KeywordLlm, KeywordPrompt } from './llm.port';

const PROVIDER = 'llm';
export const CHAT_COMPLETIONS_PATH = '/chat/completions';
/** More than any prompt asks for; a model that rambles past it is cut off. */
const MAX_KEYWORDS = 200;

export const DEFAULT_LLM_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 1_000, timeoutMs: 60_000, budgetMs: 120_000 };

/** The structured output asked for: an object with one list of strings, nothing else. */
export const KEYWORDS_RESPONSE_FORMAT = {
  type: 'json_schema',
  json_schema: {
    name: 'keywords',
    strict: true,
    schema: {
      type: 'object',
      properties: { keywords: { type: 'array', items: { type: 'string' } } },
      required: ['keywords'],
      additionalProperties: false,
    },
  },
} as const;

/**
 * Any OpenAI-compatible chat/completions server (OpenAI, Ollama, vLLM, llama.cpp): one chat with
 * the prompt, `response_format` a JSON schema for `{"keywords": [string]}`, Bearer key when one is
 * set. Servers that ignore the schema and wrap the JSON in prose or a code fence are tolerated:
 * the first JSON object in the text is read, and its shape is checked all the same.
 */
export class OpenAiChatKeywords implements KeywordLlm {
  readonly model: string;

  constructor(
    private readonly config: LlmConfig,
    private readonly retry: RetryPolicy = DEFAULT_LLM_RETRY,
  ) {
    this.model = config.model;
  }

  async keywordsFor(prompt: KeywordPrompt, signal?: AbortSignal): Promise<string[]> {
    const messages = [...(prompt.system ? [{ role: 'system', content: prompt.system }] : []), { role: 'user', content: prompt.user }];
    const body = await withRetry(
      this.retry,
      async (timeoutMs) => {
        let response;
        try {
          response = await fetchJson({
            provider: PROVIDER,
            method: 'POST',
            url: new URL(`${this.config.baseUrl}${CHAT_COMPLETIONS_PATH}`),
            body: { model: this.config.model, messages, response_format: KEYWORDS_RESPONSE_FORMAT },
            headers: this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {},
            timeoutMs,
            signal,
            secrets: [this.config.apiKey],
          });
        } catch (error) {
          throw KeywordDataError.from(error, PROVIDER);
        }
        if (response.status >= 400) {
          const message = redactKeys(upstreamMessage(response.body) ?? 'no error message');
          throw new KeywordDataError(PROVIDER, 'http', `${CHAT_COMPLETIONS_PATH} answered ${response.status}: ${message}`, response.status);
        }
        return response.body;
      },
      signal,
    );
    return keywordsOf(answerText(body));
  }
}

/**
 * OpenAI's "Incorrect API key provided: sk-…" echoes part of the key, masked in its middle, which the
 * whole key's removal (fetchJson's `secrets`) does not catch; error messages end up in logs.
 */
function redactKeys(message: string): string {
  return message.replace(/\bsk-[\w*.-]+/g, '[key]');
}

/** The assistant's text: `choices[0].message.content`; a refusal is an error, not an empty list. */
function answerText(body: unknown): string {
  const message = asObject(asObject(asArray(asObject(body)?.choices)?.[0])?.message);
  if (!message) throw new KeywordDataError(PROVIDER, 'malformed', `${CHAT_COMPLETIONS_PATH} answered without choices[0].message`);
  if (typeof message.refusal === 'string' && message.refusal !== '')
    throw new KeywordDataError(PROVIDER, 'http', `the model refused: ${message.refusal.slice(0, 200)}`, 422);
  if (typeof message.content !== 'string')
    throw new KeywordDataError(PROVIDER, 'malformed', `${CHAT_COMPLETIONS_PATH} answered a message without text content`);
  return message.content;
}

/** Reads `{"keywords": [string]}` from the answer, alone or wrapped in prose or a code fence. */
export function keywordsOf(text: string): string[] {
  const parsed = parseJsonObject(text);
  const keywords = asArray(asObject(parsed)?.keywords);
  if (!keywords || keywords.some((keyword) => typeof keyword !== 'string')) {
    throw new KeywordDataError(PROVIDER, 'malformed', 'the model did not answer {"keywords": [string]}');
  }
  const cleaned = (keywords as string[]).map((keyword) => keyword.trim().replace(/\s+/g, ' ')).filter((keyword) => keyword !== '');
  return [...new Set(cleaned)].slice(0, MAX_KEYWORDS);
}

function parseJsonObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Prose around the object, or a ```json fence: the span from the first { to the last }.
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start < 0 || end <= start) return undefined;
    try {
      return JSON.parse(text.slice(start, end + 1));
    } catch {
      return undefined;
    }
  }
}
