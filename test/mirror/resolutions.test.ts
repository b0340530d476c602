import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Resolutions } from '../../src/mirror/resolutions.ts';

const brand = (domain: string, aliases: string[], name = domain) => ({
  kind: 'brand',
  domain,
  aliases,
  resolution: { canonical_domain: domain, brand_name: name },
});

describe('the mirror’s resolutions', () => {
  it('resolves a brand by its domain, else by an alias, a brand of its own winning over another’s alias', () => {
    const r = new Resolutions();
    r.apply('a', brand('house.example', ['shop.example', 'other.example']));
    r.apply('b', brand('other.example', []));
    const found = r.brandsFor(['house.example', 'shop.example', 'other.example', 'none.example']);
    assert.deepEqual(Object.fromEntries(found), {
      'house.example': { canonical_domain: 'house.example', brand_name: 'house.example' },
      'shop.example': { canonical_domain: 'house.example', brand_name: 'house.example' },
      'other.example': { canonical_domain: 'other.example', brand_name: 'other.example' },
    });
  });

  it('follows an alias to the brand that claimed it last, and forgets aliases a brand no longer declares', () => {
    const r = new Resolutions();
    r.apply('a', brand('a.example', ['x.example', 'y.example']));
    r.apply('b', brand('b.example', ['x.example']));
    assert.equal(
      (r.brandsFor(['x.example']).get('x.example') as { canonical_domain: string }).canonical_domain,
      'b.example',
    );
    // a's next change no longer lists y, nor takes x back from b.
    r.apply('a', brand('a.example', [], 'A renamed'));
    assert.equal(
      (r.brandsFor(['x.example']).get('x.example') as { canonical_domain: string }).canonical_domain,
      'b.example',
    );
    assert.equal(r.brandsFor(['y.example']).size, 0);
    assert.deepEqual(r.brandsFor(['a.example']).get('a.example'), {
      canonical_domain: 'a.example',
      brand_name: 'A renamed',
    });
  });

  it('keeps a property entry’s latest record, and refuses data that is not a resolution', () => {
    const r = new Resolutions();
    const entry = (status: string) => ({ kind: 'property', domain: 'news.example', resolution: { status } });
    r.apply('p', entry('active'));
    r.apply('p', entry('stale'));
    assert.deepEqual(Object.fromEntries(r.propertiesFor(['news.example', 'none.example'])), {
      'news.example': { status: 'stale' },
    });
    assert.deepEqual(r.size, { brands: 0, propertyEntries: 1 });
    assert.throws(() => r.apply('q', { kind: 'property', resolution: {} }), /no domain/);
    assert.throws(() => r.apply('q', { kind: 'policy', domain: 'x.example', resolution: {} }), /unknown kind/);
  });
});
