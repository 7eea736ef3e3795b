import { accountIdOfApiKey, hashApiKey, issueApiKey } from './api-key-secret';

describe('API key secrets', () => {
  const accountId = '0123456789abcdef01234567';

  it('issues a key that names its account, with a hash and a 4-character prefix', () => {
    const issued = issueApiKey(accountId);
    expect(issued.key).toMatch(/^[0-9A-Za-z]{40}_0123456789abcdef01234567$/);
    expect(accountIdOfApiKey(issued.key)).toBe(accountId);
    expect(issued.keyHash).toBe(hashApiKey(issued.key));
    expect(issued.keyHash).not.toContain(issued.key.slice(0, 40));
    expect(issued.keyPrefix).toBe(`${issued.key.slice(0, 4)}••••••••`);
  });

  it('hashes a key to the SHA-256 hex digest stored with it (stored hashes must keep matching)', () => {
    // printf %s <key> | sha256sum
    expect(hashApiKey(`${'Ab1'.repeat(13)}x_${accountId}`)).toBe('5f7ccc73ff7299490cec1da9f1936a6057e9dfe333e349c4083cb251c0ce501e');
  });

  it('never issues the same key twice', () => {
    const keys = new Set(Array.from({ length: 200 }, () => issueApiKey(accountId).key));
    expect(keys.size).toBe(200);
  });

  it('rejects keys not of our form', () => {
    expect(accountIdOfApiKey('')).toBeNull();
    expect(accountIdOfApiKey(`${'a'.repeat(40)}_XYZ`)).toBeNull();
    expect(accountIdOfApiKey(`${'a'.repeat(39)}_${accountId}`)).toBeNull();
  });
});
