import { Parser } from 'htmlparser2';
import { isRecord, items } from '../../../protocol/json-values.ts';

/** content-standards/artifact.json, as far as evaluation reads it. */
export interface Artifact {
  property_rid: string;
  artifact_id: string;
  url?: string;
  assets: Array<Record<string, unknown> & { type: string }>;
  metadata?: Record<string, unknown>;
}

/** One piece of what an artifact says, and where it says it (a finding names it). */
export interface Segment {
  where: string;
  text: string;
}

/** What an artifact says: its text, transcripts, captions and declared categories; its language when it declares one. */
export interface ArtifactContent {
  segments: Segment[];
  language?: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/**
 * Everything an artifact declares about itself, each piece tagged with where it came from: text
 * assets (HTML and markdown reduced to their words), video and audio transcripts, image alt text
 * and captions, and the metadata's declared categories (keywords, Open Graph and JSON-LD sections,
 * tags and genres).
 */
export function contentOf(artifact: Artifact): ArtifactContent {
  const segments: Segment[] = [];
  let language: string | undefined;
  for (const [n, asset] of artifact.assets.entries()) {
    const at = `assets[${n}]`;
    if (asset.type === 'text') {
      const content = str(asset['content']);
      if (content === undefined) continue;
      const html = asset['content_format'] === 'text/html';
      segments.push({ where: `${at} (${str(asset['role']) ?? 'text'})`, text: html ? htmlText(content) : content });
      language ??= str(asset['language']);
    } else {
      for (const field of ['transcript', 'alt_text', 'caption'])
        if (str(asset[field])) segments.push({ where: `${at}.${field}`, text: asset[field] as string });
    }
  }
  segments.push(...declaredCategories(artifact.metadata ?? {}));
  return { segments, ...(language ? { language } : {}) };
}

/** The categories and descriptions a page's metadata declares, each its own segment. */
function declaredCategories(metadata: Record<string, unknown>): Segment[] {
  const out: Segment[] = [];
  const add = (where: string, v: unknown) => {
    if (Array.isArray(v)) for (const x of v) add(where, x);
    else if (str(v)) out.push({ where, text: v as string });
  };
  add('metadata.keywords', metadata['keywords']);
  const og = (metadata['open_graph'] ?? {}) as Record<string, unknown>;
  for (const key of ['title', 'description', 'article:section', 'article:tag', 'og:title', 'og:description'])
    add(`metadata.open_graph.${key}`, og[key]);
  for (const [n, item] of items(metadata['json_ld']).entries())
    if (isRecord(item))
      for (const key of ['headline', 'articleSection', 'keywords', 'genre', 'about'])
        add(`metadata.json_ld[${n}].${key}`, item[key]);
  return out;
}

/** Whether an artifact says anything to evaluate without its page being read. */
export const saysAnything = (content: ArtifactContent): boolean => content.segments.length > 0;

/** The most of a page's text read: titles, descriptions, headings and paragraphs up to this many characters. */
const pageTextChars = 20_000;

/**
 * What a fetched page says of itself: its title, description, keywords, Open Graph section and
 * tags, and its headings' and paragraphs' text (scripts and styles skipped), as segments.
 */
export function pageContent(html: string, url: string): ArtifactContent {
  const segments: Segment[] = [];
  let language: string | undefined;
  let open: string | undefined;
  let text = '';
  let skipping = 0;
  let budget = pageTextChars;
  const push = (where: string, value: string) => {
    const clean = value.replace(/\s+/g, ' ').trim().slice(0, budget);
    if (clean === '') return;
    budget -= clean.length;
    segments.push({ where: `${url} ${where}`, text: clean });
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'html' && attrs['lang']) language = attrs['lang'];
        if (name === 'script' || name === 'style' || name === 'noscript') skipping++;
        if (name === 'meta') {
          const key = (attrs['name'] ?? attrs['property'] ?? '').toLowerCase();
          if (['description', 'keywords', 'og:title', 'og:description', 'article:section', 'article:tag'].includes(key))
            push(`<meta ${key}>`, attrs['content'] ?? '');
        }
        if (['title', 'h1', 'h2', 'h3', 'p', 'li'].includes(name) && skipping === 0) {
          open = name;
          text = '';
        }
      },
      ontext(data) {
        if (open !== undefined && skipping === 0) text += data;
      },
      onclosetag(name) {
        if (name === 'script' || name === 'style' || name === 'noscript') skipping = Math.max(0, skipping - 1);
        if (name === open) {
          push(`<${name}>`, text);
          open = undefined;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return { segments, ...(language ? { language } : {}) };
}

function htmlText(html: string): string {
  let text = '';
  let skipping = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'script' || name === 'style') skipping++;
      },
      ontext(data) {
        if (skipping === 0) text += data;
      },
      onclosetag(name) {
        if (name === 'script' || name === 'style') skipping = Math.max(0, skipping - 1);
        else text += ' ';
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return text;
}
