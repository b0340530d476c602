import MiniSearch from 'minisearch';
import {
  fuzzyOptions,
  prefixOption,
  queryTerms,
  queryText,
  termCounts,
  type QueryTerms,
} from '../text-search/index.ts';
import type { Product } from './catalog/index.ts';

/** A product a brief matched, with how well and on which words. */
export interface Ranked {
  product: Product;
  score: number;
  /** The brief's terms found in the product, for `brief_relevance`. */
  terms: string[];
}

// Words a brief uses for channels, beside the channels' own names (enums/channels.json).
const channelWords: Record<string, string> = {
  display: 'display banner web',
  olv: 'olv online video',
  ctv: 'ctv connected tv television streaming',
  linear_tv: 'linear tv television broadcast',
  streaming_audio: 'streaming audio radio music',
  podcast: 'podcast audio',
  radio: 'radio audio',
  dooh: 'dooh digital out of home screens billboard',
  ooh: 'ooh out of home billboard',
  social: 'social',
  gaming: 'gaming games',
  retail_media: 'retail media commerce',
};

// Words of a brief that say nothing of the inventory it wants.
const stopWords = new Set(
  'a an and at for in of on or the to with our we want looking campaign reach ads ad inventory'.split(' '),
);

interface Document {
  id: string;
  name: string;
  description: string;
  channels: string;
  properties: string;
  formats: string;
  delivery: string;
}

const processTerm = (term: string): string | null => {
  const word = term.toLowerCase();
  return stopWords.has(word) ? null : word;
};

function documentOf(product: Product): Document {
  return {
    id: product.product_id,
    name: product.name,
    description: product.description,
    channels: (product.channels ?? []).map((c) => channelWords[c] ?? c.replaceAll('_', ' ')).join(' '),
    properties: product.publisher_properties
      .flatMap((s) => [
        s.publisher_domain,
        ...(s.selection_type === 'by_id' ? s.property_ids : s.selection_type === 'by_tag' ? s.property_tags : []),
      ])
      .map((word) => word.replaceAll(/[._-]/g, ' '))
      .join(' '),
    formats: product.format_ids.map((f) => f.id.replaceAll('_', ' ')).join(' '),
    delivery: product.delivery_type.replaceAll('_', ' '),
  };
}

/**
 * Ranks a catalog's products against a brief: full-text search (MiniSearch, BM25 with prefix
 * matching, fuzzy for typos) over names, descriptions, channels, the publishers and properties
 * sold, formats and delivery type. Built once per catalog; a search reads memory only.
 */
export class ProductSearch {
  private readonly index: MiniSearch<Document>;
  private readonly byId: Map<string, Product>;

  constructor(products: readonly Product[]) {
    this.byId = new Map(products.map((p) => [p.product_id, p]));
    this.index = new MiniSearch<Document>({
      fields: ['name', 'description', 'channels', 'properties', 'formats', 'delivery'],
      processTerm,
      searchOptions: { boost: { name: 3, channels: 2, properties: 1.5 }, prefix: prefixOption(), combineWith: 'OR' },
    });
    this.index.addAll(products.map(documentOf));
  }

  /** The terms a text is searched for: its distinct words, as many and as long as `queryLimits` allow. */
  query(text: string): QueryTerms {
    return queryTerms(text, processTerm);
  }

  /**
   * The products the text matches, best first; ties keep catalog order. Words match as written or
   * (from three letters) as a prefix; only a brief none of whose words match so is searched again
   * forgiving typos (fuzzy matching on every search would also admit strays: "sports" is one edit
   * from "spots", and it costs several times the plain search). The text is searched through
   * `query`, so its work is bounded whatever its length.
   */
  rank(text: string): Ranked[] {
    const terms = this.query(text);
    const query = queryText(terms);
    if (query === '') return [];
    // A word said twice weighs twice, as when each occurrence was a query term.
    const counts = termCounts(terms);
    const boostTerm = (term: string) => counts.get(term) ?? 1;
    let hits = this.index.search(query, { boostTerm });
    if (hits.length === 0) hits = this.index.search(query, { ...fuzzyOptions(), boostTerm });
    return hits.map((hit) => ({ product: this.byId.get(hit.id as string)!, score: hit.score, terms: hit.queryTerms }));
  }

  /** Products like the one named (for a refine's `more_like_this`), itself excluded. */
  similar(productId: string): Ranked[] {
    const product = this.byId.get(productId);
    if (!product) return [];
    const { name, description, channels } = documentOf(product);
    return this.rank(`${name} ${description} ${channels}`).filter((r) => r.product.product_id !== productId);
  }
}
