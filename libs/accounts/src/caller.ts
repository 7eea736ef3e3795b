import type { OpenAccountState } from './domain/account';

/** Who is calling: an account through one of its keys, or nobody (a public read of a shared project). */
export type Caller = { kind: 'account'; accountId: string; keyId: string; account: OpenAccountState } | { kind: 'anonymous' };

export type AccountCaller = Extract<Caller, { kind: 'account' }>;
