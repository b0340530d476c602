import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  dottedField,
  jsonPath,
  jsonPathLite,
  jsonPointer,
  pointerChild,
  pointerSegments,
  pointerTokens,
  pointerValue,
} from '../../src/protocol/json-path.ts';
import { faultPointer } from '../../src/protocol/schema-issues.ts';

describe('JSON Pointer (RFC 6901)', () => {
  it('decodes ~1 before ~0, so an escaped tilde followed by 1 stays itself', () => {
    assert.deepEqual(pointerTokens(''), []);
    assert.deepEqual(pointerTokens('/a~1b/~01/c~0~1d'), ['a/b', '~1', 'c~/d']);
    assert.deepEqual(pointerTokens('/'), ['']);
    assert.deepEqual(pointerTokens('/a//b'), ['a', '', 'b']);
    assert.throws(() => pointerTokens('a/b'), TypeError);
  });

  it('encodes what it decodes', () => {
    const keys = ['a/b', '~1', 'c~/d', '', '0'];
    const pointer = jsonPointer(keys);
    assert.equal(pointer, '/a~1b/~01/c~0~1d//0');
    assert.deepEqual(pointerTokens(pointer), keys);
    assert.equal(pointerChild('/x', 'y/z'), '/x/y~1z');
  });

  it('reads digits as an index only inside an array', () => {
    const document = { items: [{ '7': 'seven' }] };
    assert.deepEqual(pointerSegments('/items/0/7', document), ['items', 0, '7']);
    assert.equal(jsonPath(pointerSegments('/items/0/7', document)), '$.items[0]["7"]');
  });

  it('finds the value a pointer names, and nothing for what it does not name', () => {
    const document = { $defs: { 'a/b': { type: 'string' } }, list: [1, 2], '': 'empty' };
    assert.equal(pointerValue(document, ''), document);
    assert.deepEqual(pointerValue(document, '/$defs/a~1b'), { type: 'string' });
    assert.equal(pointerValue(document, '/list/1'), 2);
    assert.equal(pointerValue(document, '/'), 'empty');
    for (const missing of ['/list/01', '/list/-', '/list/length', '/__proto__', '/$defs/x/y', 'list', '/constructor'])
      assert.equal(pointerValue(document, missing), undefined, missing);
  });
});

describe('field paths', () => {
  it('spells the registry details dotted and agent errors as JSONPath-lite', () => {
    const segments = pointerTokens('/packages/0/targeting/geo_countries/2');
    assert.equal(dottedField(segments), 'packages.0.targeting.geo_countries.2');
    assert.equal(jsonPathLite(segments), 'packages[0].targeting.geo_countries[2]');
    assert.equal(jsonPathLite([0, 'a']), '[0].a');
    assert.equal(jsonPathLite([]), '');
  });

  it('names the missing or unexpected property, not its parent', () => {
    const at = (keyword: string, params: object) => faultPointer({ keyword, instancePath: '/a/0', params });
    assert.equal(at('required', { missingProperty: 'b/c' }), '/a/0/b~1c');
    assert.equal(at('additionalProperties', { additionalProperty: 'x' }), '/a/0/x');
    // `dependencies` also carries missingProperty, but the fault is the object that has the one without the other.
    assert.equal(at('dependencies', { missingProperty: 'height', property: 'width' }), '/a/0');
    assert.equal(at('type', { type: 'string' }), '/a/0');
  });
});
