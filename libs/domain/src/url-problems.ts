import { withoutUserinfo } from './secret-text';

/**
 * The words of a start refusal for a URL variable, one wording wherever a URL is read (so that a
 * variable two parts read, such as DATAFORSEO_BASE_URL, is refused once), never with a password.
 */
export const notAnHttpUrl = (name: string, raw: string) => `${name} must be an http(s) URL (got "${withoutUserinfo(raw)}")`;

/** Node's fetch refuses a URL with a user or password in it, and a failure would quote it whole. */
export const urlWithCredentials = (name: string, raw: string) =>
  `${name} must not carry a user or password (got "${withoutUserinfo(raw)}"): a provider's key goes in its own variable`;
