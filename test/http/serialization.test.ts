import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nullableUnions } from '../../src/http/serialization.ts';

describe('response serializer schemas', () => {
  const shared: Record<string, unknown> = { Entry: { type: 'object' } };
  const refType = (ref: string) => (shared[ref.replace(/#$/, '')] as { type?: unknown } | undefined)?.type;

  it('write "X or null" as X marked nullable, so a value with unlisted fields is written, not refused', () => {
    const schema = {
      type: 'object',
      properties: {
        results: {
          type: 'object',
          patternProperties: {
            '^.*$': { anyOf: [{ $ref: 'Entry#' }, { type: 'null' }], description: 'keyed by domain' },
          },
        },
        cursor: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
    };
    assert.deepEqual(nullableUnions(schema, refType), {
      type: 'object',
      properties: {
        results: {
          type: 'object',
          patternProperties: {
            '^.*$': { $ref: 'Entry#', type: 'object', description: 'keyed by domain', nullable: true },
          },
        },
        cursor: { type: 'string', nullable: true },
      },
    });
  });

  it('leave other unions as they are, and a reference whose type is not known', () => {
    const unions = [
      { anyOf: [{ const: 'a' }, { const: 'b' }] },
      { anyOf: [{ type: 'null' }, { anyOf: [{ const: 'a' }, { type: 'integer' }] }] },
      { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
      { anyOf: [{ $ref: 'Elsewhere#' }, { type: 'null' }] },
    ];
    for (const union of unions) assert.deepEqual(nullableUnions(union, refType), union);
  });
});
