import { withoutSecrets } from './secret-text';

describe('withoutSecrets', () => {
  it('cuts every secret out of a text, as written and URL-encoded', () => {
    const text = 'GET /?api_key=k3y/with+plus&u=1 answered 401: key k3y%2Fwith%2Bplus is wrong (Basic bG9naW46cGFzc3dvcmQ=)';
    expect(withoutSecrets(text, ['k3y/with+plus', 'bG9naW46cGFzc3dvcmQ=', undefined])).toBe(
      'GET /?api_key=[secret]&u=1 answered 401: key [secret] is wrong (Basic [secret])',
    );
  });

  it('takes a secret that contains another whole, and leaves values too short to be secrets', () => {
    expect(withoutSecrets('login:password1 and password1', ['password1', 'login:password1'])).toBe('[secret] and [secret]');
    expect(withoutSecrets('the page 1234567 loaded', ['1234567', ''])).toBe('the page 1234567 loaded');
  });
});
