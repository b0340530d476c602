import MiniSearch from 'minisearch';
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

const stopWords = new Set(['a', 'an', 'and', 'at', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with', 'our', 'we', 'want', 'looking', 'campaign', 'reach', 'ads', 'ad', 'inventory']);

interface Document {
  id: string;
  name: string;
  description: string;
  channels: string;
  properties: string;
  formats: string;
  delivery: string;
}

function documentOf(product: Product): Document {
  return {
    id: product.product_id,
    name: product.name,
    description: product.description,
    channels: (product.channels ?? []).map((c) => channelWords[c] ?? c.replaceAll('_', ' ')).join(' '),
    properties: product.publisher_properties
      .flatMap((s) => [s.publisher_domain, ...(s.selection_type === 'by_id' ? s.property_ids : s.selection_type === 'by_tag' ? s.property_tags : [])])
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
      processTerm: (term) => {
        const word = term.toLowerCase();
        return stopWords.has(word) ? null : word;
      },
      searchOptions: { boost: { name: 3, channels: 2, properties: 1.5 }, prefix: true, combineWith: 'OR' },
    });
    this.index.addAll(products.map(documentOf));
  }

  /**
   * The products the text matches, best first; ties keep catalog order. Words match as written or
   * as a prefix; only a brief none of whose words match so is searched again forgiving typos
   * (fuzzy matching on every search would also admit strays: "sports" is one edit from "spots",
   * and it costs several times the plain search).
   */
  rank(text: string): Ranked[] {
    let hits = this.index.search(text);
    if (hits.length === 0) hits = this.index.search(text, { fuzzy: 0.2 });
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
