import { createHash } from 'node:crypto';
import { checkIdFor, projectPosition } from './project-position';

const result = (position: number, domain: string) => ({ position, url: `https://${domain}/p`, title: domain, domain });

describe('projectPosition', () => {
  it('is the first result of the domain, an alias, or a subdomain of either', () => {
    const results = [result(1, 'other.com'), result(2, 'blog.shop.example'), result(3, 'shop.example')];
    expect(projectPosition(results, ['shop.example']).position).toBe(2);
    expect(projectPosition([result(1, 'x.com'), result(4, 'shop-alias.example')], ['shop.example', 'shop-alias.example']).position).toBe(4);
  });
  it('is 0 with empty fields when the project is not in the list, and a look-alike does not count', () => {
    expect(projectPosition([result(1, 'notshop.example')], ['shop.example'])).toEqual({ position: 0, url: '', title: '', domain: '' });
  });
});

describe('checkIdFor', () => {
  const hash = (s: string) => createHash('sha256').update(s).digest('hex');
  it('is a stable 24-hex id that starts with the batch time', () => {
    const at = new Date('2026-05-01T00:00:00Z');
    const id = checkIdFor('b1', 'k1', at, hash);
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(id).toBe(checkIdFor('b1', 'k1', at, hash));
    expect(id).not.toBe(checkIdFor('b1', 'k2', at, hash));
    expect(id.slice(0, 8)).toBe((at.getTime() / 1000).toString(16));
  });
});
