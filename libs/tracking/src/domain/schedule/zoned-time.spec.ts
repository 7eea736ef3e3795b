import { localDateTime, zonedInstant } from './zoned-time';

/** Wall-clock times as people write them: `YYYY-MM-DD HH:mm[:ss]`. */
const parseWall = (text: string) => {
  const [, y, mo, d, h, mi, s] = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text)!;
  return { year: +y, month: +mo, day: +d, hour: +h, minute: +mi, second: s ? +s : 0 };
};
const pad = (n: number) => String(n).padStart(2, '0');
const showWall = (t: ReturnType<typeof localDateTime>) =>
  `${t.year}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;

/** given(zone).when(wall clock).thenInstantIs(iso) · given(zone).at(iso).thenClockShows(wall clock) */
const given = (zone: string) => ({
  when: (wall: string) => ({
    thenInstantIs: (iso: string) => expect(zonedInstant(parseWall(wall), zone).toISOString()).toBe(iso),
  }),
  at: (iso: string) => ({
    thenClockShows: (wall: string) => expect(showWall(localDateTime(new Date(iso), zone))).toBe(wall),
  }),
});

describe('localDateTime', () => {
  it('reads the wall clock in UTC and in zones ahead of and behind it', () => {
    given('UTC').at('2026-05-10T12:34:56.789Z').thenClockShows('2026-05-10 12:34:56');
    given('Europe/Berlin').at('2026-01-15T12:00:00Z').thenClockShows('2026-01-15 13:00:00');
    given('Europe/Berlin').at('2026-07-15T12:00:00Z').thenClockShows('2026-07-15 14:00:00');
    given('America/New_York').at('2026-01-01T03:00:00Z').thenClockShows('2025-12-31 22:00:00');
  });
  it('shows midnight as 00, never 24', () => {
    given('Europe/Berlin').at('2026-05-09T22:00:00Z').thenClockShows('2026-05-10 00:00:00');
  });
  it('reads zones with half- and quarter-hour offsets', () => {
    given('Asia/Kolkata').at('2026-05-10T06:30:00Z').thenClockShows('2026-05-10 12:00:00');
    given('Asia/Kathmandu').at('2026-05-10T06:15:00Z').thenClockShows('2026-05-10 12:00:00');
  });
  it('reads a date line zone a calendar day ahead of UTC', () => {
    given('Pacific/Apia').at('2026-05-10T23:00:00Z').thenClockShows('2026-05-11 12:00:00');
    given('Pacific/Kiritimati').at('2026-05-10T22:00:00Z').thenClockShows('2026-05-11 12:00:00');
  });
  it('follows both DST changes of 2026 in Berlin', () => {
    given('Europe/Berlin').at('2026-03-29T00:59:59Z').thenClockShows('2026-03-29 01:59:59');
    given('Europe/Berlin').at('2026-03-29T01:00:00Z').thenClockShows('2026-03-29 03:00:00');
    given('Europe/Berlin').at('2026-10-25T00:30:00Z').thenClockShows('2026-10-25 02:30:00');
    given('Europe/Berlin').at('2026-10-25T01:30:00Z').thenClockShows('2026-10-25 02:30:00');
  });
  it('still reads the clock should ICU print en-US differently (the formatToParts fallback)', () => {
    // `format` is an accessor on the prototype (it returns a bound function), so it is swapped by hand.
    const proto = Intl.DateTimeFormat.prototype;
    const original = Object.getOwnPropertyDescriptor(proto, 'format')!;
    Object.defineProperty(proto, 'format', { configurable: true, get: () => () => 'not the usual shape' });
    try {
      given('Asia/Kathmandu').at('2026-05-10T06:15:00Z').thenClockShows('2026-05-10 12:00:00');
    } finally {
      Object.defineProperty(proto, 'format', original);
    }
  });
  it('refuses an unknown zone', () => {
    expect(() => localDateTime(new Date(), 'Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('zonedInstant', () => {
  it('finds the instant of an ordinary wall-clock time', () => {
    given('UTC').when('2026-05-10 12:00').thenInstantIs('2026-05-10T12:00:00.000Z');
    given('Europe/Berlin').when('2026-01-15 12:00').thenInstantIs('2026-01-15T11:00:00.000Z');
    given('Europe/Berlin').when('2026-07-15 12:00').thenInstantIs('2026-07-15T10:00:00.000Z');
    given('America/New_York').when('2026-07-15 12:00').thenInstantIs('2026-07-15T16:00:00.000Z');
    given('Europe/Berlin').when('2026-05-10 00:00').thenInstantIs('2026-05-09T22:00:00.000Z');
  });
  it('handles half- and quarter-hour offsets', () => {
    given('Asia/Kolkata').when('2026-05-10 12:00').thenInstantIs('2026-05-10T06:30:00.000Z');
    given('Asia/Kathmandu').when('2026-05-10 00:00').thenInstantIs('2026-05-09T18:15:00.000Z');
  });
  it('puts a date line zone on the UTC day before', () => {
    given('Pacific/Apia').when('2026-05-11 12:00').thenInstantIs('2026-05-10T23:00:00.000Z');
  });

  describe('spring forward: a time in the gap moves to the first instant after the gap', () => {
    it('Berlin 2026-03-29: 02:00 and 02:30 do not exist, both become 03:00 CEST', () => {
      given('Europe/Berlin').when('2026-03-29 02:00').thenInstantIs('2026-03-29T01:00:00.000Z');
      given('Europe/Berlin').when('2026-03-29 02:30').thenInstantIs('2026-03-29T01:00:00.000Z');
      given('Europe/Berlin').when('2026-03-29 01:59').thenInstantIs('2026-03-29T00:59:00.000Z');
      given('Europe/Berlin').when('2026-03-29 03:00').thenInstantIs('2026-03-29T01:00:00.000Z');
    });
    it('New York 2026-03-08: 02:00 becomes 03:00 EDT', () => {
      given('America/New_York').when('2026-03-08 02:00').thenInstantIs('2026-03-08T07:00:00.000Z');
      given('America/New_York').when('2026-03-08 02:45').thenInstantIs('2026-03-08T07:00:00.000Z');
    });
    it('São Paulo 2018-11-04, a gap at midnight: 00:00 becomes 01:00 the same day', () => {
      given('America/Sao_Paulo').when('2018-11-04 00:00').thenInstantIs('2018-11-04T03:00:00.000Z');
    });
    it('Apia 2011-12-30, a whole day skipped at the date line move: any time that day becomes 2011-12-31 00:00', () => {
      given('Pacific/Apia').when('2011-12-30 12:00').thenInstantIs('2011-12-30T10:00:00.000Z');
      given('Pacific/Apia').at('2011-12-30T10:00:00Z').thenClockShows('2011-12-31 00:00:00');
    });
  });

  describe('fall back: a time shown twice resolves to its first occurrence', () => {
    it('Berlin 2026-10-25: 02:00 is taken in CEST, not CET', () => {
      given('Europe/Berlin').when('2026-10-25 02:00').thenInstantIs('2026-10-25T00:00:00.000Z');
      given('Europe/Berlin').when('2026-10-25 02:59').thenInstantIs('2026-10-25T00:59:00.000Z');
      given('Europe/Berlin').when('2026-10-25 03:00').thenInstantIs('2026-10-25T02:00:00.000Z');
    });
    it('New York 2026-11-01: 01:00 is taken in EDT, not EST', () => {
      given('America/New_York').when('2026-11-01 01:00').thenInstantIs('2026-11-01T05:00:00.000Z');
      given('America/New_York').when('2026-11-01 02:00').thenInstantIs('2026-11-01T07:00:00.000Z');
    });
  });

  it('round-trips every hour of 2026 in Berlin that exists exactly once', () => {
    const movedBack: string[] = [];
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 3_600_000) {
      const first = zonedInstant(localDateTime(ms, 'Europe/Berlin'), 'Europe/Berlin').getTime();
      if (first !== ms) movedBack.push(`${new Date(ms).toISOString()} → ${new Date(first).toISOString()}`);
    }
    // Only the repeated hour's second pass maps back, to its first occurrence an hour earlier.
    expect(movedBack).toEqual(['2026-10-25T01:00:00.000Z → 2026-10-25T00:00:00.000Z']);
  });
});
