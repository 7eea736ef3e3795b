import { FAILURES, FakeJsonApi, type FakeAnswer, type SeenRequest } from '../../testing/fake-json-api';
import { AnswerQueue } from '../../testing/answer-queue';
import { CHAT_COMPLETIONS_PATH } from '../openai-chat.client';

/** The path prefix the fake serves under, as OpenAI's /v1: OPENAI_BASE_URL = url (which includes it). */
const PREFIX = '/v1';

/** How the fake model answers: as asked, or like a model that ignores the schema, or refusing. */
export type FakeModelStyle = 'structured' | 'wrapped-in-prose' | 'wrong-shape' | 'refusal';

/** OpenAI's error body: `{error: {message, type, param, code}}`. */
export function openAiError(status: number, type: string, message: string, code: string | null = null): FakeAnswer {
  return { kind: 'json', status, body: { error: { message, type, param: null, code } } };
}

export const OPENAI_FAILURES = {
  ...FAILURES,
  serverError: (status = 500) => openAiError(status, 'server_error', 'The server had an error while processing your request.'),
  rateLimited: () => openAiError(429, 'requests', 'Rate limit reached for requests.', 'rate_limit_exceeded'),
  malformed: (): FakeAnswer => ({ kind: 'text', status: 200, body: '{"id": "chatcmpl-1", "choices": [', contentType: 'application/json' }),
} as const;

/**
 * An OpenAI-compatible `POST /v1/chat/completions` on 127.0.0.1, answering
 * `{id, object: "chat.completion", created, model, choices: [{index, message: {role, content,
 * refusal}, finish_reason}], usage}`; with an API key set it wants `Authorization: Bearer` with it
 * (401 invalid_api_key otherwise). The model's keywords are `keywords`, in the style set.
 */
export class FakeOpenAi {
  keywords: string[] = ['coffee beans online', 'best espresso machine', 'coffee subscription'];
  style: FakeModelStyle = 'structured';

  private constructor(
    readonly api: FakeJsonApi,
    private readonly queue: AnswerQueue,
    private readonly apiKey: string | undefined,
  ) {}

  static async start(apiKey?: string): Promise<FakeOpenAi> {
    let fake: FakeOpenAi | undefined;
    const queue = new AnswerQueue();
    const api = await FakeJsonApi.start(queue.route((request) => fake!.answer(request)));
    fake = new FakeOpenAi(api, queue, apiKey);
    return fake;
  }

  /** As OPENAI_BASE_URL takes it (with the /v1 prefix). */
  get url(): string {
    return `${this.api.origin}${PREFIX}`;
  }

  get requests(): SeenRequest[] {
    return this.api.requests;
  }

  failWith(answer: FakeAnswer | undefined): void {
    this.api.failWith(answer);
  }

  failNext(answer: FakeAnswer, times = 1): void {
    this.queue.failNext(answer, times);
  }

  reset(): void {
    this.keywords = ['coffee beans online', 'best espresso machine', 'coffee subscription'];
    this.style = 'structured';
    this.queue.clear();
    this.api.failWith(undefined);
    this.api.requests.length = 0;
  }

  close(): Promise<void> {
    return this.api.close();
  }

  private answer(request: SeenRequest): FakeAnswer {
    if (request.method !== 'POST' || request.path !== `${PREFIX}${CHAT_COMPLETIONS_PATH}`)
      return openAiError(404, 'invalid_request_error', 'Unknown request URL.', 'unknown_url');
    if (this.apiKey !== undefined && request.headers.authorization !== `Bearer ${this.apiKey}`) {
      // OpenAI echoes the key it got (partly masked); the client must not pass that on to the logs.
      const got = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      return openAiError(
        401,
        'invalid_request_error',
        `Incorrect API key provided: ${got}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        'invalid_api_key',
      );
    }
    const body = asRecord(request.body);
    if (typeof body.model !== 'string' || !Array.isArray(body.messages) || body.messages.length === 0) {
      return openAiError(400, 'invalid_request_error', "Missing required parameter: 'messages'.", 'missing_required_parameter');
    }
    const json = JSON.stringify({ keywords: this.keywords });
    const content =
      this.style === 'structured'
        ? json
        : this.style === 'wrapped-in-prose'
          ? `Here are some keywords:\n\`\`\`json\n${json}\n\`\`\`\nHope this helps!`
          : this.style === 'wrong-shape'
            ? JSON.stringify({ ideas: this.keywords })
            : null;
    const refusal = this.style === 'refusal' ? "I'm sorry, I can't help with that request." : null;
    return {
      kind: 'json',
      body: {
        id: 'chatcmpl-fake-1',
        object: 'chat.completion',
        created: 1_748_000_000,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content, refusal }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
      },
    };
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** Starts the fake; with `apiKey` it wants that Bearer key. */
export function startOpenAiFake(apiKey?: string): Promise<FakeOpenAi> {
  return FakeOpenAi.start(apiKey);
}
