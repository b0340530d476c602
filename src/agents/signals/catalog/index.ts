/**
 * The signals agent's catalog: a YAML or JSON file of signals, checked in full when it is loaded
 * (against the published get_signals response item and the catalog's own rules) so a mistake
 * stops the start with its line, not a buyer's call.
 */
export { CatalogError, type CatalogProblem } from '../../catalog-files/index.ts';
export { demoSignalsPath } from './demo-signals.ts';
export { loadSignalsCatalog } from './load-signals-catalog.ts';
export { GET_SIGNALS_RESPONSE_SCHEMA_ID, parseSignalsCatalog } from './parse-signals-catalog.ts';
export { signalCategories, signalTypes } from './types.ts';
export type {
  CatalogSignal,
  CustomSignal,
  MarketplaceSignal,
  OwnedSignal,
  PlatformAvailability,
  SignalCategory,
  SignalId,
  SignalPricingOption,
  SignalsCatalog,
  SignalType,
} from './types.ts';
export {
  catalogPlatformDeployment,
  cpmPricing,
  toWireSignal,
  type ActivationKey,
  type Deployment,
  type WireSignal,
} from './wire-signal.ts';
