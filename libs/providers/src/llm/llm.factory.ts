import type { LlmConfig } from '../keyword-data/keyword-data-config';
import type { KeywordLlm } from './llm.port';
import { OpenAiChatKeywords } from './openai-chat.client';

/** The configured language model (OPENAI_API_KEY or OPENAI_BASE_URL set), or null: suggestions then seed from autocomplete. */
export function createKeywordLlm(config: LlmConfig | undefined): KeywordLlm | null {
  return config ? new OpenAiChatKeywords(config) : null;
}
