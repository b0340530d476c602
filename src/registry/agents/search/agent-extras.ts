import type { AgentType } from '../agent-types.ts';
import type { ExtrasRow } from '../sql.ts';
import type { Visibility } from '../visibility.ts';

/** What enrollment and probing add to an enrolled agent's profile, and who may see it. */
export interface AgentExtras {
  type: AgentType;
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
}

type Json = Record<string, unknown>;
const object = (value: unknown): Json | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * From the agent's get_ap_capabilities: TMP support (`media_buy.execution.trusted_match` present,
 * as the schema defines it) and its portfolio's primary channels and countries.
 */
export function extrasFrom(row: ExtrasRow): AgentExtras {
  const mediaBuy = object(object(row.capabilities)?.['media_buy']);
  const portfolio = object(mediaBuy?.['portfolio']);
  const updated = row.capabilities_fetched_at && row.capabilities_fetched_at > row.updated_at ? row.capabilities_fetched_at : row.updated_at;
  return {
    type: row.type,
    visibility: row.visibility,
    organizationId: row.organization_id,
    channels: strings(portfolio?.['primary_channels']),
    markets: strings(portfolio?.['primary_countries']).filter((c) => /^[A-Z]{2}$/.test(c)),
    categories: [],
    deliveryTypes: [],
    formatIds: [],
    hasTmp: object(object(mediaBuy?.['execution'])?.['trusted_match']) !== undefined,
    categoryTaxonomy: null,
    updatedAt: updated,
  };
}
