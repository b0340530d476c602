import { underBase } from '../catalog-files/index.ts';
import { sameAgentUrl } from '../formats/index.ts';
import type { CatalogSignal, SignalId, SignalsCatalog } from './catalog/index.ts';
import { platformNamer } from './platforms.ts';
import { SignalSearch } from './search/signal-search.ts';

/** The catalog as the tasks read it: its search index and lookups, built once at start. */
export interface Offering {
  readonly signals: readonly CatalogSignal[];
  readonly search: SignalSearch;
  bySegmentId(id: string): CatalogSignal | undefined;
  /** The signal a core/signal-id.json names (an agent-native id by its absolute or path-form agent_url). */
  bySignalId(id: SignalId, baseUrl: string): CatalogSignal | undefined;
  /** Every platform some signal can be activated on. */
  readonly platforms: ReadonlySet<string>;
  /** The catalog's identifier of a platform as a buyer names it (see platforms.ts); undefined when no signal is on it. */
  platformOf(named: string): string | undefined;
  /** The signals by coverage, broadest first (catalog order among equals): what a spec that matches nothing is answered with. */
  readonly broadest: readonly CatalogSignal[];
}

export function offeringOf(catalog: SignalsCatalog): Offering {
  const bySegment = new Map(catalog.signals.map((s) => [s.signal_agent_segment_id, s]));
  const byCatalogId = new Map(
    catalog.signals.flatMap((s) =>
      s.signal_id.source === 'catalog'
        ? [[`${s.signal_id.data_provider_domain.toLowerCase()} ${s.signal_id.id}`, s] as const]
        : [],
    ),
  );
  const agentNative = catalog.signals.filter((s) => s.signal_id.source === 'agent');
  const platforms = new Set(catalog.signals.flatMap((s) => s.platforms.map((p) => p.platform)));
  // Array sort is stable, so equal coverage keeps catalog order.
  const broadest = [...catalog.signals].sort((a, b) => b.coverage_percentage - a.coverage_percentage);
  return {
    signals: catalog.signals,
    search: new SignalSearch(catalog.signals),
    bySegmentId: (id) => bySegment.get(id),
    bySignalId(id, baseUrl) {
      if (id.source === 'catalog') return byCatalogId.get(`${id.data_provider_domain.toLowerCase()} ${id.id}`);
      return agentNative.find(
        (s) =>
          s.signal_id.id === id.id &&
          sameAgentUrl(underBase(baseUrl, (s.signal_id as { agent_url: string }).agent_url), id.agent_url),
      );
    },
    platforms,
    platformOf: platformNamer(platforms),
    broadest,
  };
}
