import type { AgentRow } from './sql.ts';

/** An enrolled agent as the catalog shows it, before enrichments. */
export function entryOf(row: AgentRow) {
  return {
    agent_url: row.agent_url,
    name: row.name,
    type: row.type,
    ...(row.description ? { description: row.description } : {}),
    visibility: row.visibility,
    operator: { slug: row.organization_slug, name: row.organization_name },
    enrolled_at: row.enrolled_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
