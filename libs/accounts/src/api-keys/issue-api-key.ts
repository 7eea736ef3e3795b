import { Injectable } from '@nestjs/common';
import { invalid } from '@rank/domain/domain-error';
import { newObjectId } from '@rank/domain/object-id';
import { AccountRepository } from '../account.repository';
import { MAX_API_KEY_NAME_LENGTH } from '../domain/account';
import { issueApiKey } from './api-key-secret';
import { characterCount } from '@rank/domain/text-length';

export interface IssuedApiKey {
  /** The full secret: shown this once, never again. */
  key: string;
  apiKey: { _id: string; name: string; keyPrefix: string; createdAt: string };
}

/**
 * A new API key for an account: the account's own `POST /api/user/api-keys`, and the operator's way to
 * give a user who lost every key a new one. Only the key's hash is stored.
 */
@Injectable()
export class IssueApiKey {
  constructor(private readonly accounts: AccountRepository) {}

  async issue(accountId: string, rawName: unknown, now: Date): Promise<IssuedApiKey> {
    const name = keyName(rawName);
    const issued = issueApiKey(accountId);
    const keyId = newObjectId(now);
    const { events } = await this.accounts.handle(
      accountId,
      { type: 'CreateApiKey', keyId, name, keyHash: issued.keyHash, keyPrefix: issued.keyPrefix },
      now,
    );
    const created = events.find((e) => e.type === 'ApiKeyCreated');
    if (!created || created.type !== 'ApiKeyCreated') throw new Error('creating a key must record ApiKeyCreated');
    return { key: issued.key, apiKey: { _id: keyId, name, keyPrefix: issued.keyPrefix, createdAt: created.data.createdAt } };
  }
}

/** A key's name: text of 1 to 100 characters once trimmed (the HTTP DTO checks the same). */
export function keyName(raw: unknown): string {
  if (typeof raw !== 'string') throw invalid('name must be a string');
  const name = raw.trim();
  if (name === '' || characterCount(name) > MAX_API_KEY_NAME_LENGTH)
    throw invalid(`name must be 1 to ${MAX_API_KEY_NAME_LENGTH} characters`);
  return name;
}
