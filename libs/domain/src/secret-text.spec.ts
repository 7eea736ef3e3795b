import { parsedWithoutSecrets, withoutSecrets, withoutSecretsIn, withoutUserinfo } from './secret-text';

describe('withoutSecrets', () => {
  it('cuts every secret out of a text, as written and URL-encoded', () => {
    const text = 'GET /?api_key=k3y/with+plus&u=1 answered 401: key k3y%2Fwith%2Bplus is wrong (Basic bG9naW46cGFzc3dvcmQ=)';
    expect(withoutSecrets(text, ['k3y/with+plus', 'bG9naW46cGFzc3dvcmQ=', undefined])).toBe(
      'GET /?api_key=[secret]&u=1 answered 401: key [secret] is wrong (Basic [secret])',
    );
  });

  it("cuts a secret as a query or form writes it ('()!~ escaped, a space as +) and as a JSON string quotes it", () => {
    // Before: these went through, into warnings and into failure reasons stored in the log.
    const secret = `SECRET-KEY(1)'!~ "x"\\y`;
    const echoed = [
      `GET /v1/x?api_key=${new URLSearchParams({ k: secret }).toString().slice(2)}&start=1`,
      `{"error":{"message":"bad key ${JSON.stringify(secret).slice(1, -1)}"}}`,
      `{"echo":"${JSON.stringify(new URLSearchParams({ k: secret }).toString().slice(2)).slice(1, -1)}"}`,
    ];
    for (const text of echoed) expect(withoutSecrets(text, [secret])).not.toContain('SECRET-KEY');
    expect(withoutSecrets(echoed[0]!, [secret])).toBe('GET /v1/x?api_key=[secret]&start=1');
  });

  it('takes a secret that contains another whole, and leaves values too short to be secrets', () => {
    expect(withoutSecrets('login:password1 and password1', ['password1', 'login:password1'])).toBe('[secret] and [secret]');
    expect(withoutSecrets('the page 1234567 loaded', ['1234567', ''])).toBe('the page 1234567 loaded');
  });
});

describe('parsedWithoutSecrets', () => {
  it('cuts a secret a JSON encoder escaped, and parses a text without escapes as it is', () => {
    const secret = '1//refresh-token-é';
    const escaped = '{"error":"bad 1\\/\\/refresh-token-\\u00e9"}';
    expect(parsedWithoutSecrets(withoutSecrets(escaped, [secret]), [secret])).toEqual({ error: 'bad [secret]' });
    const plain = JSON.stringify({ error: `bad ${secret}` }).replace(/\\/g, '');
    expect(parsedWithoutSecrets(withoutSecrets(plain, [secret]), [secret])).toEqual({ error: 'bad [secret]' });
  });
});

describe('withoutSecretsIn', () => {
  it('cuts a secret out of every string of a parsed answer, keys included, however deep', () => {
    const secret = 'SECRET-1234-abcd';
    let deep: unknown = { leaf: `x ${secret} y` };
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const parsed = { message: `bad ${secret}`, list: [secret, 3, null], [`${secret}=1`]: true, deep };
    const cut = withoutSecretsIn(parsed, [secret]);
    expect({ ...cut, deep: undefined }).toEqual({
      message: 'bad [secret]',
      list: ['[secret]', 3, null],
      '[secret]=1': true,
      deep: undefined,
    });
    let bottom: unknown = cut.deep;
    while (Array.isArray(bottom)) bottom = bottom[0];
    expect(bottom).toEqual({ leaf: 'x [secret] y' });
    expect(withoutSecretsIn(`a ${secret}`, [secret])).toBe('a [secret]');
  });
});

describe('withoutUserinfo', () => {
  it('masks a user and password however the URL is written, and leaves a URL without them alone', () => {
    expect(withoutUserinfo('http://user:pw-SECRET@127.0.0.1:9/v1')).toBe('http://***@127.0.0.1:9/v1');
    expect(withoutUserinfo('https://:pw-SECRET@host')).toBe('https://***@host');
    expect(withoutUserinfo('default:pw-SECRET@127.0.0.1:9')).toBe('***@127.0.0.1:9');
    // Before, a space stopped the mask (nothing was masked) and a `//` in the password moved it.
    expect(withoutUserinfo('http://user:Pa SeCrEt@127.0.0.1:9')).toBe('http://***@127.0.0.1:9');
    expect(withoutUserinfo('user:pa//SeCrEt@127.0.0.1:9')).toBe('***@127.0.0.1:9');
    expect(withoutUserinfo('redis://u:p@ss@SECRET@redis:6379')).toBe('redis://***@redis:6379');
    expect(withoutUserinfo('https://www.google.com/search')).toBe('https://www.google.com/search');
  });
});
