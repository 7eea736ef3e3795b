import {
  BrowserUnavailableError,
  CHROMIUM_FLAGS,
  ChromiumPathError,
  chooseChromium,
  DEBIAN_CHROMIUM_PATH,
  describeChromiumChoice,
  HIDE_SYSTEM_BROWSERS_FOR_TESTS,
  type ChromiumProbes,
} from './chromium';
import { closeChromium, launchChromium } from './chromium-launch';

/** A machine with these files, where `runs` answer `--version` and the rest fail like a wrapper whose binary is gone. */
function machine(files: string[], runs: string[] = files, bundled = true): ChromiumProbes {
  return {
    fileExists: (path) => files.includes(path),
    findOnPath: (name) => files.find((f) => f.endsWith(`/${name}`)),
    version: (path) => (runs.includes(path) ? { ok: true, version: 'Chromium 156.0.1' } : { ok: false, error: 'exit 127: not found' }),
    bundled: () => (bundled ? { packageVersion: '143.0.4', unpackTo: '/tmp/chromium' } : undefined),
  };
}

describe('chooseChromium', () => {
  it('takes CHROMIUM_PATH when it points at a file, even one that does not answer --version', () => {
    expect(
      chooseChromium(
        { CHROMIUM_PATH: '/opt/chrome/chrome' },
        machine(['/opt/chrome/chrome', DEBIAN_CHROMIUM_PATH], [DEBIAN_CHROMIUM_PATH]),
      ),
    ).toEqual({
      source: 'CHROMIUM_PATH',
      path: '/opt/chrome/chrome',
      version: undefined,
      skipped: [],
    });
  });

  it('names CHROMIUM_PATH when it points at nothing, rather than falling back', () => {
    const choose = () => chooseChromium({ CHROMIUM_PATH: '/nope' }, machine([DEBIAN_CHROMIUM_PATH]));
    expect(choose).toThrow(ChromiumPathError);
    expect(choose).toThrow('CHROMIUM_PATH is set to "/nope", but no file exists there');
  });

  it("prefers Debian's Chromium, then a Chrome or Chromium on PATH", () => {
    expect(chooseChromium({ CHROMIUM_PATH: ' ' }, machine([DEBIAN_CHROMIUM_PATH, '/usr/bin/google-chrome']))).toMatchObject({
      source: 'system',
      path: DEBIAN_CHROMIUM_PATH,
      version: 'Chromium 156.0.1',
    });
    expect(chooseChromium({}, machine(['/usr/local/bin/google-chrome']))).toMatchObject({
      source: 'system',
      path: '/usr/local/bin/google-chrome',
    });
  });

  it('passes over a system browser that does not run and takes the bundled one, saying why', () => {
    const choice = chooseChromium({}, machine([DEBIAN_CHROMIUM_PATH], []));
    expect(choice).toEqual({
      source: 'bundled',
      path: '/tmp/chromium',
      version: 'Chromium 143, @sparticuz/chromium 143.0.4',
      skipped: ['/usr/bin/chromium does not run (exit 127: not found)'],
    });
    expect(describeChromiumChoice(choice)).toBe(
      'Browser: bundled @sparticuz/chromium, unpacked on first use to /tmp/chromium (Chromium 143, @sparticuz/chromium 143.0.4); ' +
        'passed over: /usr/bin/chromium does not run (exit 127: not found)',
    );
  });

  it('ignores system browsers when the first-run test asks it to, where it cannot hide them otherwise', () => {
    expect(chooseChromium({ [HIDE_SYSTEM_BROWSERS_FOR_TESTS]: '1' }, machine([DEBIAN_CHROMIUM_PATH]))).toMatchObject({
      source: 'bundled',
      skipped: [],
    });
  });

  it('never hands the choice to Playwright: with nothing installed the choice says so', () => {
    expect(chooseChromium({}, machine([], [], false)).skipped).toEqual(['@sparticuz/chromium is not installed']);
  });
});

it('a browser that cannot start is a BrowserUnavailableError that says how to fix it', async () => {
  const launch = launchChromium({ choice: { source: 'CHROMIUM_PATH', path: '/bin/false', skipped: [] }, launchTimeoutMs: 10_000 });
  await expect(launch).rejects.toThrow(BrowserUnavailableError);
  await expect(launch).rejects.toThrow(
    /^No browser could be started: install Debian's chromium \(apt-get install chromium\) or set CHROMIUM_PATH to a Chrome or Chromium binary \(CHROMIUM_PATH \/bin\/false: /,
  );
});

it('launches a headless Chromium with the fixed flags and closes it, twice without harm', async () => {
  expect(CHROMIUM_FLAGS).toEqual(
    expect.arrayContaining([
      '--headless',
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
    ]),
  );
  const browser = await launchChromium({ extraArgs: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] });
  expect(browser.isConnected()).toBe(true);
  const page = await browser.newPage();
  expect(await page.evaluate('navigator.webdriver')).toBe(false);

  await closeChromium(browser);
  await closeChromium(browser);

  expect(browser.isConnected()).toBe(false);
});
