import type { FastifyReply } from 'fastify';
import { html } from 'ghtml';
import { page, sendHtml, type PageOptions } from '../http/html.ts';
import { isRecord } from '../protocol/json-values.ts';
import type { ApiAnswer, Json } from './api.ts';

/** Pieces the pages share. Every value from the API goes through `html`, which escapes it (`!${}` marks HTML already made). */

export const text = (value: unknown): string => (typeof value === 'string' ? value : '');
export const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
/** An object as it is; anything else as an empty one. */
export const object = (value: unknown): Json => (isRecord(value) ? value : {});

/** A timestamp as a person reads it (UTC, to the minute), in a <time> a script or a reader can use. */
export function when(value: unknown): string {
  const iso = text(value);
  if (!iso) return '';
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** A table, or a sentence when there are no rows. Rows are HTML already made. */
export function table(caption: string, headings: readonly string[], rows: readonly string[], empty: string): string {
  if (rows.length === 0) return html`<p class="muted">${empty}</p>`;
  // Focusable, so a keyboard can scroll a table wider than the screen.
  return html`<div class="scroll" tabindex="0" role="region" aria-label="${caption}">
    <table>
      <thead>
        <tr>
          !${headings.map((h) => html`<th scope="col">${h}</th>`)}
        </tr>
      </thead>
      <tbody>
        !${rows}
      </tbody>
    </table>
  </div>`;
}

/** Label and value pairs; values are HTML already made, and a pair without a value is left out. */
export function facts(pairs: ReadonlyArray<readonly [string, string]>): string {
  const shown = pairs.filter(([, value]) => value !== '');
  return html`<dl class="facts">
    !${shown.map(
      ([label, value]) =>
        html`<dt>${label}</dt>
          <dd>!${value}</dd>`,
    )}
  </dl>`;
}

export function badge(label: string, tone: 'good' | 'bad' | 'warn' | '' = ''): string {
  return html`<span class="badge ${tone}">${label}</span>`;
}

/** The link to the next page of a list the API pages by cursor, keeping the other parameters. */
export function nextPage(path: string, params: Record<string, string | undefined>, body: Json): string {
  const cursor = text(body['cursor']) || text(body['next_cursor']);
  if (body['has_more'] !== true || !cursor) return '';
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  query.set('cursor', cursor);
  return html`<nav class="pages" aria-label="Pages">
    <a href="${path}?${query.toString()}" rel="next">Next page</a>
  </nav>`;
}

/** What a page says when the API refused or did not find what it asked (the catalogue's `{error, message}`). */
export function refusal(answer: ApiAnswer): string {
  const message = text(answer.body['message']) || `The registry answered ${answer.status}.`;
  return html`<p class="error" role="alert">${message}</p>`;
}

/** Answers a page that could not be made because the API refused: its refusal, with the API's status. */
export function sendRefusal(reply: FastifyReply, title: string, answer: ApiAnswer, options: PageOptions): FastifyReply {
  return sendHtml(reply, page(title, refusal(answer), options), answer.status, false);
}

/** How a form's text field is bounded and explained, beside its name and value. */
export interface FieldOptions {
  type?: 'text' | 'url' | 'email' | 'password';
  required?: boolean;
  maxlength?: number;
  placeholder?: string;
  /** `off` for a credential the browser should not offer again. */
  autocomplete?: 'off';
}

/**
 * A form's text field with its label: the label is tied to the input (`for`/`id`), the form sends
 * it as `name`, and it shows `value` (what was sent last, so a refused form keeps its answers).
 */
export function textField(label: string, name: string, value: string | undefined, options: FieldOptions = {}): string {
  const { type = 'text', required = false, maxlength, placeholder, autocomplete } = options;
  const bounds = [
    autocomplete ? html`autocomplete="${autocomplete}"` : '',
    required ? 'required' : '',
    maxlength === undefined ? '' : html`maxlength="${String(maxlength)}"`,
    placeholder ? html`placeholder="${placeholder}"` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return html`<label for="${name}">${label}</label
    ><input id="${name}" name="${name}" type="${type}" !${bounds} value="${value ?? ''}" />`;
}

/** A link to a page of this site about a domain (a brand, a publisher, an operator). */
export const domainLink = (section: 'brands' | 'publishers' | 'operators', domain: unknown): string =>
  text(domain) ? html`<a href="/${section}/${encodeURIComponent(text(domain))}">${text(domain)}</a>` : '';

/** A link to an agent's page. */
export const agentLink = (url: unknown, label?: string): string =>
  text(url) ? html`<a href="/agents/view?url=${encodeURIComponent(text(url))}">${label ?? text(url)}</a>` : '';
