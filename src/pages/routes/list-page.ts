import type { FastifyInstance } from 'fastify';
import { html } from 'ghtml';
import { page, sendHtml } from '../../http/html.ts';
import type { ApiReader, Json } from '../api.ts';
import { nextPage, sendRefusal, table } from '../parts.ts';
import { listQuery, type ListQuery } from './page-schemas.ts';
import { records } from '../../protocol/json-values.ts';

/** Rows a list page shows at once. */
const pageSize = 50;

/** A list the API searches and pages by cursor, shown as a page of rows. */
export interface ListPage {
  /** The page's path, which is also its section of the site. */
  path: string;
  title: string;
  /** The API route it reads, and the key of the list in its answer. */
  source: string;
  items: string;
  searchLabel: string;
  /** What the page says it counts: "brands" in "19 brands matching “north”". */
  noun: string;
  headings: readonly string[];
  row: (item: Json) => string;
  empty: string;
  /** A few words more about the whole list (text), from the API's answer. */
  note?: (answer: Json) => string;
}

/** Serves a list page: the search box, the count, a page of 50 rows and the link to the next page. */
export function listRoute(app: FastifyInstance, api: ApiReader, spec: ListPage): void {
  app.get<{ Querystring: ListQuery }>(
    spec.path,
    { schema: { hide: true, querystring: listQuery } },
    async (request, reply) => {
      const { q, cursor } = request.query;
      const answer = await api(request, spec.source, { q, cursor, limit: pageSize });
      if (answer.status !== 200) return sendRefusal(reply, spec.title, answer, { section: spec.path });
      const counted = `${String(answer.body['total'] ?? 0)} ${spec.noun}${q ? ` matching “${q}”` : ''}`;
      const body = html`!${searchForm(spec.path, spec.searchLabel, q)}
        <p class="muted">${counted}${spec.note ? `; ${spec.note(answer.body)}` : ''}.</p>
        !${table(spec.title, spec.headings, records(answer.body[spec.items]).map(spec.row), spec.empty)}
        !${nextPage(spec.path, { q }, answer.body)}`;
      return sendHtml(reply, page(spec.title, body, { section: spec.path, query: q }), 200, false);
    },
  );
}

export function searchForm(action: string, label: string, q: string | undefined): string {
  return html`<form method="get" action="${action}" class="inline" role="search">
    <div>
      <label for="list-search">${label}</label
      ><input id="list-search" type="search" name="q" value="${q ?? ''}" maxlength="200" />
    </div>
    <button type="submit">Search</button>
  </form>`;
}
