import type { CatalogSignal } from './catalog/index.ts';

/** core/signal-filters.json. */
export interface SignalFilters {
  catalog_types?: string[];
  data_providers?: string[];
  max_cpm?: number;
  max_percent?: number;
  min_coverage_percentage?: number;
}

/**
 * Whether a signal passes get_signals' filters. `data_providers` names a provider as the signal
 * shows it (`data_provider`) or by its domain (`signal_id.data_provider_domain`), either case.
 * `max_cpm` applies to CPM-priced signals only and `max_percent` to percent-of-media ones (a
 * signal passes when one of its options is within the cap), as the schema says.
 */
export function passesFilters(signal: CatalogSignal, filters: SignalFilters | undefined): boolean {
  if (!filters) return true;
  if (filters.catalog_types && !filters.catalog_types.includes(signal.signal_type)) return false;
  if (filters.data_providers) {
    const names = new Set(filters.data_providers.map((p) => p.toLowerCase()));
    const domain =
      signal.signal_id.source === 'catalog' ? signal.signal_id.data_provider_domain.toLowerCase() : undefined;
    if (!names.has(signal.data_provider.toLowerCase()) && !(domain && names.has(domain))) return false;
  }
  if (filters.min_coverage_percentage !== undefined && signal.coverage_percentage < filters.min_coverage_percentage)
    return false;
  const cpms = signal.pricing_options.filter((o) => o.model === 'cpm' && typeof o.cpm === 'number').map((o) => o.cpm!);
  if (filters.max_cpm !== undefined && cpms.length > 0 && !cpms.some((cpm) => cpm <= filters.max_cpm!)) return false;
  const percents = signal.pricing_options
    .filter((o) => o.model === 'percent_of_media' && typeof o.percent === 'number')
    .map((o) => o.percent!);
  if (filters.max_percent !== undefined && percents.length > 0 && !percents.some((p) => p <= filters.max_percent!))
    return false;
  return true;
}
