import { activeApiKeys, OpenAccountState } from '../domain/account';

/** How an active key is listed: never its secret or hash. */
export interface ApiKeyListing {
  _id: string;
  name: string;
  keyPrefix: string;
  lastUsedAt: string | null;
  createdAt: string;
}

/** The account's active keys (revoked ones are not listed), with when each was last used, if known. */
export function listActiveApiKeys(account: OpenAccountState, lastUsedAt: (keyId: string) => Date | undefined): ApiKeyListing[] {
  return activeApiKeys(account).map((k) => {
    const used = lastUsedAt(k.keyId);
    return { _id: k.keyId, name: k.name, keyPrefix: k.keyPrefix, lastUsedAt: used ? used.toISOString() : null, createdAt: k.createdAt };
  });
}
