import { eventTypes, parseEvent } from './domain-event';

type PaintEvent = { type: 'Painted'; data: { colour: string } } | { type: 'Scraped'; data: { depth: number } };
const PAINT_EVENT_TYPES = eventTypes<PaintEvent>()(['Painted', 'Scraped']);

describe('parseEvent', () => {
  it('gives the typed event of a stored one whose type is listed', () => {
    const event = parseEvent<PaintEvent>({ type: 'Painted', data: { colour: 'red' } }, PAINT_EVENT_TYPES);
    expect(event).toEqual({ type: 'Painted', data: { colour: 'red' } });
  });

  it('gives nothing for another type, so that a caller routes by type alone', () => {
    expect(parseEvent<PaintEvent>({ type: 'Sanded', data: {} }, PAINT_EVENT_TYPES)).toBeUndefined();
    expect(parseEvent<PaintEvent>({ type: 'Scraped', data: { depth: 1 } }, ['Painted'])).toBeUndefined();
  });

  it('keeps only the type and data of what it reads', () => {
    const stored = { type: 'Scraped', data: { depth: 2 }, streamName: 'wall-1', position: 3 };
    expect(parseEvent<PaintEvent>(stored, PAINT_EVENT_TYPES)).toEqual({ type: 'Scraped', data: { depth: 2 } });
  });
});
