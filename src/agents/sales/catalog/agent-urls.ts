/**
 * A product names this deployment's own creative agent by path (`/creative/mcp`). Only a format
 * id's `agent_url` gets this relaxation; everything else must be valid as written.
 */
import { isPathForm } from '../../catalog-files/index.ts';

/**
 * A copy of `value` in which every path-form `agent_url` of a format id (under a `format_ids`
 * list or a `format_id` object, at any depth) is prefixed with `base`.
 */
export function withAgentUrlsUnder(base: string, value: unknown): unknown {
  return rewrite(value, base.replace(/\/+$/, ''), false);
}

function rewrite(value: unknown, base: string, isFormatId: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, base, isFormatId));
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties, so a `__proto__` key stays data.
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      isFormatId && key === 'agent_url' && isPathForm(child)
        ? base + child
        : rewrite(child, base, key === 'format_ids' || key === 'format_id'),
    ]),
  );
}
