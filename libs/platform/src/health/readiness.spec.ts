import { checkReadiness, PART_TIMEOUT_MS, projectionsProbe } from './readiness';

describe('checkReadiness', () => {
  afterEach(() => jest.useRealTimers());

  it('is ready when every part is, and names each part', async () => {
    expect(await checkReadiness({ one: () => ({ ok: true }), two: async () => ({ ok: true, launched: false }) })).toEqual({
      status: 'ready',
      parts: { one: { ok: true }, two: { ok: true, launched: false } },
    });
  });

  it('is not ready when a part is not, or throws, at once or later, with why', async () => {
    const report = await checkReadiness({
      fine: () => ({ ok: true }),
      down: () => ({ ok: false, error: 'resting' }),
      throws: () => {
        throw new Error('SQLITE_BUSY');
      },
      rejects: async () => Promise.reject(new Error('connection refused')),
    });
    expect(report).toEqual({
      status: 'not ready',
      parts: {
        fine: { ok: true },
        down: { ok: false, error: 'resting' },
        throws: { ok: false, error: 'SQLITE_BUSY' },
        rejects: { ok: false, error: 'connection refused' },
      },
    });
  });

  it('answers for a part that hangs once its time is up, as not ready', async () => {
    jest.useFakeTimers();
    const report = checkReadiness({ hangs: () => new Promise(() => undefined), fine: () => ({ ok: true }) });
    await jest.advanceTimersByTimeAsync(PART_TIMEOUT_MS);
    expect(await report).toEqual({
      status: 'not ready',
      parts: { hangs: { ok: false, error: `no answer within ${PART_TIMEOUT_MS} ms` }, fine: { ok: true } },
    });
  });
});

describe('projectionsProbe', () => {
  const runner = (events: number, seconds: number) => ({ name: 'read-models', lag: async () => ({ events, seconds }) });

  it('is ok within both limits, and shows the lag', async () => {
    expect(await projectionsProbe(runner(10, 1.234), { events: 10, seconds: 2 })()).toEqual({
      ok: true,
      maxLag: { events: 10, seconds: 2 },
      'read-models': { events: 10, seconds: 1.2, ok: true },
    });
  });

  it('is not ok past either limit, saying how far behind', async () => {
    expect(await projectionsProbe(runner(11, 0), { events: 10, seconds: 2 })()).toMatchObject({
      ok: false,
      error: 'read-models is 11 events and 0 s behind the log',
    });
    expect(await projectionsProbe(runner(0, 2.6), { events: 10, seconds: 2 })()).toMatchObject({
      ok: false,
      error: 'read-models is 0 events and 3 s behind the log',
    });
  });
});
