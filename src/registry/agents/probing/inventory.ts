import type { AgentConnection } from '../../../client/agents/index.ts';
import { strings } from '../../../protocol/json-values.ts';

/** What a sales agent's products say of its inventory, as its profile shows it. */
export interface InventorySummary {
  channels: string[];
  delivery_types: string[];
  format_ids: Array<{ agent_url: string; id: string }>;
  product_count: number;
}

type Json = Record<string, unknown>;

/** Whether the agent sells media (its capabilities say media_buy) and lists get_products. */
export function sellsMedia(capabilities: unknown, tasks: readonly string[]): boolean {
  return (
    strings((capabilities as Json | undefined)?.['supported_protocols']).includes('media_buy') &&
    tasks.includes('get_products')
  );
}

/**
 * Asks for the agent's wholesale catalog (get_products, buying_mode wholesale: every product,
 * no brief) and sums its products up; undefined when it does not answer with products.
 */
export async function readInventory(agent: AgentConnection): Promise<InventorySummary | undefined> {
  const answer = await agent.call('get_products', { buying_mode: 'wholesale' }).catch(() => undefined);
  const products = answer?.ok ? (answer.data as Json)['products'] : undefined;
  if (!Array.isArray(products)) return undefined;
  const channels = new Set<string>();
  const deliveryTypes = new Set<string>();
  const formats = new Map<string, { agent_url: string; id: string }>();
  for (const product of products) {
    if (typeof product !== 'object' || product === null) continue;
    const p = product as Json;
    for (const channel of strings(p['channels'])) channels.add(channel);
    if (typeof p['delivery_type'] === 'string') deliveryTypes.add(p['delivery_type']);
    for (const format of Array.isArray(p['format_ids']) ? p['format_ids'] : []) {
      const f = format as Json;
      if (typeof f?.['agent_url'] === 'string' && typeof f['id'] === 'string')
        formats.set(`${f['agent_url']}\u0000${f['id']}`, { agent_url: f['agent_url'], id: f['id'] });
    }
  }
  return {
    channels: [...channels].sort(),
    delivery_types: [...deliveryTypes].sort(),
    format_ids: [...formats.values()].sort((a, b) => (a.agent_url + a.id < b.agent_url + b.id ? -1 : 1)),
    product_count: products.length,
  };
}
