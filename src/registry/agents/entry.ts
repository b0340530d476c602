import type { AgentRow } from './sql.ts';

/**
 * An enrolled agent as the catalog shows it, before enrichments; beside our fields, the ones the
 * protocol's registry client reads under its own names (`url`, `member`, `added_date`, `source`).
 */
export function entryOf(row: AgentRow) {
  const enrolledAt = row.enrolled_at.toISOString();
  return {
    agent_url: row.agent_url,
    url: row.agent_url,
    name: row.name,
    type: row.type,
    ...(row.description ? { description: row.description } : {}),
    visibility: row.visibility,
    source: 'registered' as const,
    operator: { slug: row.organization_slug, name: row.organization_name },
    member: { slug: row.organization_slug, display_name: row.organization_name },
    enrolled_at: enrolledAt,
    added_date: enrolledAt,
    updated_at: row.updated_at.toISOString(),
  };
}
