import { FetchError } from '../../../net/fetch-error.ts';
import type { SafeFetch } from '../../../net/safe-fetch.ts';
import { pageContent, type ArtifactContent } from './artifact-content.ts';

const pageBytes = 512 * 1024;
const pageTimeoutMs = 5000;
/** Pages kept, and for how long: a batch of delivery records names the same pages again and again. */
const keptPages = 500;
const keepMs = 10 * 60_000;
/** Distinct pages one call may read; records on others are judged on what they declare. */
export const pagesPerCall = 50;

export type PageReading = { content: ArtifactContent } | { failed: string };

/** Reads a page for one call (a PageReader at the call's time). */
export type ReadPage = (url: string) => Promise<PageReading>;

/**
 * Reads the pages artifacts name by URL when they carry no text of their own, always through the
 * SSRF-safe client (public addresses only, bounded time and size), and keeps what each page said
 * for ten minutes.
 */
export class PageReader {
  readonly #fetcher: SafeFetch;
  readonly #kept = new Map<string, { at: number; reading: Promise<PageReading> }>();

  constructor(fetcher: SafeFetch) {
    this.#fetcher = fetcher;
  }

  /** The page's reading, kept from one made in the ten minutes before `now` (ms) when there is one. */
  read(url: string, now: number): Promise<PageReading> {
    const kept = this.#kept.get(url);
    if (kept && now - kept.at < keepMs) return kept.reading;
    const reading = this.#fetch(url);
    this.#kept.delete(url);
    if (this.#kept.size >= keptPages) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(url, { at: now, reading });
    return reading;
  }

  async #fetch(url: string): Promise<PageReading> {
    try {
      const res = await this.#fetcher.fetch(url, {
        headers: { accept: 'text/html' },
        maxBytes: pageBytes,
        timeoutMs: pageTimeoutMs,
      });
      if (res.status !== 200) return { failed: `${url} answered HTTP ${res.status}` };
      return { content: pageContent(res.text(), url) };
    } catch (err) {
      if (err instanceof FetchError) return { failed: `${url} could not be read (${err.reason})` };
      throw err;
    }
  }
}
