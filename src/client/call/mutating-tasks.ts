import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemasDir } from '../../protocol/schemas.ts';

const requests = (readdirSync(join(schemasDir, '3.0.6'), { recursive: true, encoding: 'utf8' }) as string[])
  .filter((file) => file.endsWith('-request.json'))
  .map((file) => ({
    task: file
      .replace(/^.*\//, '')
      .replace(/-request\.json$/, '')
      .replaceAll('-', '_'),
    schema: JSON.parse(readFileSync(join(schemasDir, '3.0.6', file), 'utf8')) as { required?: unknown },
  }));

/** The protocol's tasks: those with a published request schema (`media-buy/get-products-request.json` → `get_products`). */
export const protocolTasks: ReadonlySet<string> = new Set(requests.map((r) => r.task));

/**
 * The protocol's tasks whose requests require an `idempotency_key` (every mutating one), read from
 * the published request schemas. For A2A, whose skills carry no input schema, this is how the
 * client knows to send a key; over MCP it also spares a tools/list for the protocol's own tasks.
 */
export const mutatingTasks: ReadonlySet<string> = new Set(
  requests
    .filter((r) => Array.isArray(r.schema.required) && r.schema.required.includes('idempotency_key'))
    .map((r) => r.task),
);
