import { uuidFromName } from './deterministic-uuid';

describe('uuidFromName', () => {
  it('gives the same UUID for the same name, another for another name, in UUID form', () => {
    expect(uuidFromName('check:1')).toBe(uuidFromName('check:1'));
    expect(uuidFromName('check:1')).not.toBe(uuidFromName('check:2'));
    expect(uuidFromName('x')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
