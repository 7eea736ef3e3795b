import { CHROMIUM_FLAGS, closeChromium, DEBIAN_CHROMIUM_PATH, launchChromium, resolveChromiumExecutable } from './chromium';

describe('resolveChromiumExecutable', () => {
  const exists = (...paths: string[]) => (path: string) => paths.includes(path);

  it('takes CHROMIUM_PATH when it points at a file', () => {
    expect(resolveChromiumExecutable({ CHROMIUM_PATH: '/opt/chrome/chrome' }, exists('/opt/chrome/chrome', DEBIAN_CHROMIUM_PATH))).toBe(
      '/opt/chrome/chrome',
    );
  });

  it('names CHROMIUM_PATH when it points at nothing', () => {
    expect(() => resolveChromiumExecutable({ CHROMIUM_PATH: '/nope' }, exists(DEBIAN_CHROMIUM_PATH))).toThrow(
      'CHROMIUM_PATH is set to "/nope", but no file exists there',
    );
  });

  it("falls back to Debian's Chromium, then to Playwright's own", () => {
    expect(resolveChromiumExecutable({}, exists(DEBIAN_CHROMIUM_PATH))).toBe(DEBIAN_CHROMIUM_PATH);
    expect(resolveChromiumExecutable({ CHROMIUM_PATH: ' ' }, exists())).toBeUndefined();
  });
});

it('launches a headless Chromium with the fixed flags and closes it, twice without harm', async () => {
  expect(CHROMIUM_FLAGS).toEqual(
    expect.arrayContaining(['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic']),
  );
  const browser = await launchChromium({ extraArgs: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] });
  expect(browser.isConnected()).toBe(true);
  const page = await browser.newPage();
  expect(await page.evaluate('navigator.webdriver')).toBe(false);

  await closeChromium(browser);
  await closeChromium(browser);

  expect(browser.isConnected()).toBe(false);
});
