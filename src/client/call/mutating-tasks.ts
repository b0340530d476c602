import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemasDir } from '../../protocol/schemas.ts';

/**
 * The protocol's tasks whose requests require an `idempotency_key` (every mutating one), read from
 * the published request schemas: `media-buy/create-media-buy-request.json` → `create_media_buy`.
 * For A2A, whose skills carry no input schema, this is how the client knows to send a key.
 */
export const mutatingTasks: ReadonlySet<string> = new Set(
  (readdirSync(join(schemasDir, '3.0.6'), { recursive: true, encoding: 'utf8' }) as string[])
    .filter((file) => file.endsWith('-request.json'))
    .filter((file) => {
      const schema = JSON.parse(readFileSync(join(schemasDir, '3.0.6', file), 'utf8')) as { required?: unknown };
      return Array.isArray(schema.required) && schema.required.includes('idempotency_key');
    })
    .map((file) => file.replace(/^.*\//, '').replace(/-request\.json$/, '').replaceAll('-', '_')),
);
