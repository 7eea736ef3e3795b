import { createAppLogger, writesJson } from './app-logger';
import { REDACTED, redact } from './redact';

/** What the logger writes to stdout and stderr while `run` runs. */
function captured(run: () => void): string {
  const writes: string[] = [];
  const spies = (['stdout', 'stderr'] as const).map((stream) =>
    jest.spyOn(process[stream], 'write').mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    }),
  );
  try {
    run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return writes.join('');
}

describe('redact', () => {
  it('replaces secret-named fields at any depth, whatever their spelling, and copies the rest', () => {
    const logged = {
      route: '/x',
      headers: { Authorization: 'Bearer abc', 'x-api-key': 'k' },
      nested: [{ api_key: 'k2', password: 'p', keep: 1 }],
      adminToken: 't',
    };
    expect(redact(logged)).toEqual({
      route: '/x',
      headers: { Authorization: REDACTED, 'x-api-key': 'k' },
      nested: [{ api_key: REDACTED, password: REDACTED, keep: 1 }],
      adminToken: REDACTED,
    });
    expect(logged.headers.Authorization).toBe('Bearer abc');
  });
});

describe('createAppLogger', () => {
  it('writes JSON when stdout is not a terminal, with an object message spread into the line and its secrets redacted', () => {
    const logger = createAppLogger({ logFormat: 'auto', logLevel: 'log' }, false);
    const out = captured(() => logger.log({ message: 'GET /x 200', status: 200, token: 'secret-value', level: 'fake' }, 'Http'));
    const line = JSON.parse(out.trim());
    expect(line).toMatchObject({ level: 'log', context: 'Http', message: 'GET /x 200', status: 200, token: REDACTED });
    expect(out).not.toContain('secret-value');
  });

  it("writes Nest's pretty lines on a terminal or with LOG_FORMAT=pretty, with colours only on a terminal", () => {
    expect(writesJson('auto', true)).toBe(false);
    expect(writesJson('json', true)).toBe(true);
    const piped = captured(() => createAppLogger({ logFormat: 'pretty', logLevel: 'log' }, false).warn('careful', 'Test'));
    expect(piped).toContain('careful');
    expect(piped).not.toMatch(/\u001b\[/);
    const terminal = captured(() => createAppLogger({ logFormat: 'auto', logLevel: 'log' }, true).warn('careful', 'Test'));
    // NO_COLOR turns Nest's colours off even on a terminal.
    if (!process.env.NO_COLOR) expect(terminal).toMatch(/\u001b\[/);
  });

  it('keeps to LOG_LEVEL, except for announcements', () => {
    const logger = createAppLogger({ logFormat: 'json', logLevel: 'error' }, false);
    expect(captured(() => logger.log('quiet', 'Test'))).toBe('');
    expect(JSON.parse(captured(() => logger.announce('listening on http://127.0.0.1:1', 'Api')))).toMatchObject({
      message: 'listening on http://127.0.0.1:1',
    });
  });
});
