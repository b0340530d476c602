/** What the pages take in their URLs, bounded as the API bounds the same values. */

export interface ListQuery {
  q?: string;
  cursor?: string;
}

export const listQuery = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: 200 },
    cursor: { type: 'string', maxLength: 1024 },
  },
  additionalProperties: true,
} as const;

export const domainParam = {
  type: 'object',
  properties: { domain: { type: 'string', minLength: 1, maxLength: 253 } },
  required: ['domain'],
} as const;
