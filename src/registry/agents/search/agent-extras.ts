import { isRecord, strings, type JsonObject } from '../../../protocol/json-values.ts';
import type { AgentType } from '../agent-types.ts';
import type { ComplianceFacts } from '../probing/index.ts';
import type { ExtrasRow } from '../sql.ts';
import type { Visibility } from '../visibility.ts';

/** What enrollment and probing add to an enrolled agent's profile, and who may see it. */
export interface AgentExtras {
  type: AgentType;
  name: string;
  visibility: Visibility;
  organizationId: string;
  channels: readonly string[];
  markets: readonly string[];
  categories: readonly string[];
  deliveryTypes: readonly string[];
  formatIds: Array<{ agent_url: string; id: string }>;
  hasTmp: boolean;
  categoryTaxonomy: string | null;
  /** When enrollment or the capabilities last changed. */
  updatedAt: Date;
  /** What its probes say of its compliance; undefined before its first probe. */
  compliance: ComplianceFacts | undefined;
}

const object = (value: unknown): JsonObject | undefined => (isRecord(value) ? value : undefined);

function formatIdsOf(value: unknown): Array<{ agent_url: string; id: string }> {
  if (!Array.isArray(value)) return [];
  return value.flatMap((f) =>
    typeof f?.agent_url === 'string' && typeof f?.id === 'string'
      ? [{ agent_url: f.agent_url as string, id: f.id as string }]
      : [],
  );
}

/**
 * From the agent's get_ap_capabilities: TMP support (`media_buy.execution.trusted_match` present,
 * as the schema defines it) and its portfolio's primary channels and countries; from its products
 * (probing's summary of its wholesale catalog): channels, delivery types and formats.
 */
export function extrasFrom(row: ExtrasRow): AgentExtras {
  const mediaBuy = object(object(row.capabilities)?.['media_buy']);
  const portfolio = object(mediaBuy?.['portfolio']);
  const updated =
    row.capabilities_fetched_at && row.capabilities_fetched_at > row.updated_at
      ? row.capabilities_fetched_at
      : row.updated_at;
  return {
    type: row.type,
    name: row.name,
    visibility: row.visibility,
    organizationId: row.organization_id,
    channels: [...new Set([...strings(portfolio?.['primary_channels']), ...strings(row.inventory?.channels)])],
    markets: strings(portfolio?.['primary_countries']).filter((c) => /^[A-Z]{2}$/.test(c)),
    categories: [],
    deliveryTypes: strings(row.inventory?.delivery_types),
    formatIds: formatIdsOf(row.inventory?.format_ids),
    hasTmp: object(object(mediaBuy?.['execution'])?.['trusted_match']) !== undefined,
    categoryTaxonomy: null,
    updatedAt: updated,
    compliance:
      row.probed_at && row.compliance_status && row.compliance
        ? {
            status: row.compliance_status,
            checks: row.compliance,
            checkedAt: row.probed_at,
            since: row.compliance_status_since,
            verified: row.verified === true,
            verifiedRole: row.verified_role,
          }
        : undefined,
  };
}
