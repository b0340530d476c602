import type { PathSegment } from '../../../protocol/json-path.ts';
import { validateSchema } from '../../../protocol/schemas.ts';
import {
  deepFreeze,
  isObject,
  isPathForm,
  readCatalogDocument,
  reportRepeatedIds,
  rootList,
  type CatalogDocument,
} from '../../catalog-files/index.ts';
import { signalCategories, type CatalogSignal, type SignalsCatalog } from './types.ts';

export const GET_SIGNALS_RESPONSE_SCHEMA_ID = '/schemas/3.0.6/signals/get-signals-response.json';

/** Stands in for this deployment's origin while a path-form agent_url is checked as a URI. */
const placeholderOrigin = 'https://placeholder.invalid';

/** The fields of an entry that go on the wire as written (deployments are the request's). */
const wireFields = [
  'signal_agent_segment_id',
  'signal_id',
  'name',
  'description',
  'value_type',
  'categories',
  'range',
  'signal_type',
  'data_provider',
  'coverage_percentage',
  'pricing_options',
];
const catalogFields = ['category', 'taxonomy', 'keywords', 'countries', 'platforms'];
const ownershipFields = { marketplace: [], custom: ['principals'], owned: ['owner'] } as const;
const allowedFields = new Set([...wireFields, ...catalogFields, 'principals', 'owner']);

const countryCode = /^[A-Z]{2}$/;
const platformId = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/**
 * Reads a signals catalog (YAML or JSON: a `signals` list) and checks every entry: its wire
 * fields against the published get_signals response item, its catalog-only fields, what each
 * type requires (a marketplace signal a CPM price, a custom one its principals, an owned one its
 * owner and no cost), and ids unique (segment ids, signal ids, pricing option ids, the last
 * within the whole agent as the schema asks). Throws a CatalogError naming each problem's line.
 */
export function parseSignalsCatalog(text: string, source: string): SignalsCatalog {
  const document = readCatalogDocument(text, source);
  const signals = rootList(document, 'signals', 'signal');
  signals.forEach((signal, index) => checkSignal(document, signal, ['signals', index]));
  reportRepeatedIds(document.report, signals, ['signals'], 'signal_agent_segment_id');
  checkUniqueSignalIds(document, signals);
  checkUniquePricingOptionIds(document, signals);
  document.throwIfProblems();
  return deepFreeze({ source, signals: signals as CatalogSignal[] });
}

function checkSignal(document: CatalogDocument, signal: unknown, at: readonly PathSegment[]): void {
  const { report } = document;
  const issues = validateSchema(GET_SIGNALS_RESPONSE_SCHEMA_ID, { signals: [wireProjection(signal)] }).errors;
  const item = '$.signals[0]';
  document.reportSchemaIssues(
    at,
    issues
      .filter((issue) => issue.path.startsWith(item))
      .map((issue) => ({ ...issue, path: `$${issue.path.slice(item.length)}` })),
  );
  if (!isObject(signal)) return;

  for (const key of Object.keys(signal))
    if (!allowedFields.has(key)) report([...at, key], 'is not an allowed property here');
  for (const key of catalogFields) if (signal[key] === undefined) report([...at, key], 'is required');

  const category = signal['category'];
  if (category !== undefined && !(signalCategories as readonly unknown[]).includes(category))
    report([...at, 'category'], `must be one of ${signalCategories.map((c) => JSON.stringify(c)).join(', ')}`);
  checkStrings(document, signal['taxonomy'], [...at, 'taxonomy']);
  checkStrings(document, signal['keywords'], [...at, 'keywords']);
  checkStrings(document, signal['countries'], [...at, 'countries'], {
    pattern: countryCode,
    meaning: 'an ISO 3166-1 alpha-2 code such as US',
  });
  checkPlatforms(document, signal['platforms'], [...at, 'platforms']);
  checkValues(document, signal, at);
  checkType(document, signal, at);
}

/** The entry as the response would carry it, so the published schema judges exactly what is sent. */
function wireProjection(signal: unknown): unknown {
  if (!isObject(signal)) return signal;
  const projection: Record<string, unknown> = { deployments: [] };
  for (const key of wireFields) if (signal[key] !== undefined) projection[key] = signal[key];
  const id = projection['signal_id'];
  if (isObject(id) && id['source'] === 'agent' && isPathForm(id['agent_url']))
    projection['signal_id'] = { ...id, agent_url: placeholderOrigin + id['agent_url'] };
  return projection;
}

function checkStrings(
  document: CatalogDocument,
  value: unknown,
  at: readonly PathSegment[],
  format?: { pattern: RegExp; meaning: string },
): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) return document.report(at, 'must be a list of strings');
  if (value.length === 0) return document.report(at, 'must list at least one');
  const seen = new Set<unknown>();
  value.forEach((item: unknown, index) => {
    if (typeof item !== 'string' || item.trim() === '') document.report([...at, index], 'must be a non-empty string');
    else if (format && !format.pattern.test(item)) document.report([...at, index], `must be ${format.meaning}`);
    else if (seen.has(item)) document.report([...at, index], `repeats ${JSON.stringify(item)}`);
    seen.add(item);
  });
}

function checkPlatforms(document: CatalogDocument, value: unknown, at: readonly PathSegment[]): void {
  const { report } = document;
  if (value === undefined) return;
  if (!Array.isArray(value)) return report(at, 'must be a list of platforms');
  const seen = new Set<unknown>();
  value.forEach((platform: unknown, index) => {
    const here = [...at, index];
    if (!isObject(platform)) return report(here, 'must be a mapping with platform and activation_minutes');
    for (const key of Object.keys(platform))
      if (!['platform', 'segment_id', 'activation_minutes'].includes(key))
        report([...here, key], 'is not an allowed property here');
    const id = platform['platform'];
    if (typeof id !== 'string' || !platformId.test(id))
      report([...here, 'platform'], 'must be a platform identifier (lowercase letters, digits and dashes)');
    else if (seen.has(id)) report([...here, 'platform'], `repeats ${JSON.stringify(id)}`);
    seen.add(id);
    const minutes = platform['activation_minutes'];
    if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes < 0)
      report([...here, 'activation_minutes'], 'must be a number of minutes >= 0');
    const segment = platform['segment_id'];
    if (segment !== undefined && (typeof segment !== 'string' || segment === ''))
      report([...here, 'segment_id'], 'must be a non-empty string');
  });
}

/** The schema says categories and range are present for their value types; the catalog holds it to that both ways. */
function checkValues(document: CatalogDocument, signal: Record<string, unknown>, at: readonly PathSegment[]): void {
  const type = signal['value_type'];
  if (type === 'categorical' && signal['categories'] === undefined)
    document.report([...at, 'categories'], 'is required for a categorical signal');
  if (type !== 'categorical' && signal['categories'] !== undefined)
    document.report([...at, 'categories'], 'is only for a categorical signal');
  if (type === 'numeric' && signal['range'] === undefined)
    document.report([...at, 'range'], 'is required for a numeric signal');
  if (type !== 'numeric' && signal['range'] !== undefined)
    document.report([...at, 'range'], 'is only for a numeric signal');
}

function checkType(document: CatalogDocument, signal: Record<string, unknown>, at: readonly PathSegment[]): void {
  const { report } = document;
  const type = signal['signal_type'];
  if (type !== 'marketplace' && type !== 'custom' && type !== 'owned') return; // the schema said so
  for (const key of ['principals', 'owner'] as const) {
    if (signal[key] !== undefined && !(ownershipFields[type] as readonly string[]).includes(key))
      report([...at, key], `is not for a ${type} signal`);
  }
  const options = Array.isArray(signal['pricing_options']) ? (signal['pricing_options'] as unknown[]) : [];
  if (type === 'marketplace') {
    if (!options.some((o) => isObject(o) && o['model'] === 'cpm'))
      report(
        [...at, 'pricing_options'],
        'must include a cpm option: a marketplace signal is licensed per thousand impressions',
      );
  } else if (type === 'custom') {
    if (signal['principals'] === undefined)
      report(
        [...at, 'principals'],
        'is required: a custom signal is visible only to the principal accounts it was built for',
      );
    else checkStrings(document, signal['principals'], [...at, 'principals']);
  } else {
    const owner = signal['owner'];
    if (owner === undefined) report([...at, 'owner'], 'is required: an owned signal is private to its owner');
    else if (typeof owner !== 'string' || owner.trim() === '') report([...at, 'owner'], 'must be a non-empty string');
    options.forEach((o, index) => {
      if (isObject(o) && !(o['model'] === 'cpm' && o['cpm'] === 0))
        report([...at, 'pricing_options', index], 'must be a cpm option of 0: an owned signal costs its owner nothing');
    });
  }
}

function checkUniqueSignalIds(document: CatalogDocument, signals: readonly unknown[]): void {
  const seen = new Map<string, number>();
  signals.forEach((signal, index) => {
    const id = isObject(signal) ? signal['signal_id'] : undefined;
    if (!isObject(id) || typeof id['id'] !== 'string') return;
    const key = JSON.stringify([id['source'], id['data_provider_domain'] ?? id['agent_url'], id['id']]);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else document.report(['signals', index, 'signal_id'], `is already the signal_id of signals[${first}]`);
  });
}

/** The schema: a pricing_option_id is "unique within the vendor agent", since report_usage names it alone. */
function checkUniquePricingOptionIds(document: CatalogDocument, signals: readonly unknown[]): void {
  const seen = new Map<string, string>();
  signals.forEach((signal, index) => {
    const options = isObject(signal) ? signal['pricing_options'] : undefined;
    if (!Array.isArray(options)) return;
    options.forEach((option: unknown, optionIndex) => {
      const id = isObject(option) ? option['pricing_option_id'] : undefined;
      if (typeof id !== 'string') return;
      const first = seen.get(id);
      if (first === undefined) seen.set(id, `signals[${index}].pricing_options[${optionIndex}]`);
      else
        document.report(
          ['signals', index, 'pricing_options', optionIndex, 'pricing_option_id'],
          `${JSON.stringify(id)} is already the id of ${first}`,
        );
    });
  });
}
