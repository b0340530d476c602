import type { FastifyInstance } from 'fastify';
import { html } from 'ghtml';
import { page, sendHtml } from '../../http/html.ts';
import type { ApiReader, Json } from '../api.ts';
import { object, refusal, table, text, textField, when } from '../parts.ts';
import { fields } from './form-fields.ts';
import { records } from '../../protocol/json-values.ts';

const pageSize = 50;

/**
 * `/feed`: the change feed as it happens. With a script (`/assets/feed.js`) the page streams
 * `/api/registry/feed/stream` with the visitor's credential (the feed wants one), filtered by
 * type globs, pausing and resuming from the last cursor; without, the form posts here and reads one
 * page of `/api/registry/feed` at a time. The credential is the visitor's own and never kept.
 */
export function feedRoute(app: FastifyInstance, api: ApiReader): void {
  app.get('/feed', { schema: { hide: true } }, async (_request, reply) =>
    sendHtml(reply, page('Change feed', form({}), { section: '/feed', scripts: ['feed.js'] })),
  );
  app.post('/feed', { schema: { hide: true } }, async (request, reply) => {
    const asked = fields(request.body, 2048);
    const answer = await api(
      request,
      '/api/registry/feed',
      { cursor: asked['cursor'], types: asked['types'], limit: pageSize },
      undefined,
      asked['credential'],
    );
    const result =
      answer.status === 200
        ? events(records(answer.body['events'])) +
          html`<p class="muted">
            Cursor <code>${text(answer.body['cursor'])}</code>: put it in the form to read on from here.
          </p>`
        : refusal(answer);
    const next = { ...asked, cursor: text(answer.body['cursor']) || asked['cursor'] };
    // Shows the visitor's own credential back in the form: the page is never cached (no-store).
    return sendHtml(
      reply,
      page('Change feed', form(next) + result, { section: '/feed', scripts: ['feed.js'] }),
      answer.status,
    );
  });
}

function events(rows: Json[]): string {
  return table(
    'Events',
    ['When', 'Type', 'About', 'By'],
    rows.map(
      (e) =>
        html`<tr>
          <td>!${when(e['created_at'])}</td>
          <td><code>${text(e['event_type'])}</code></td>
          <td>${about(e)}</td>
          <td>${text(e['actor'])}</td>
        </tr>`,
    ),
    'No event after this cursor yet.',
  );
}

/** What an event is about, as a person names it: its publisher or agent, else its entity's id (as feed.js says it). */
function about(event: Json): string {
  const payload = object(event['payload']);
  return text(payload['publisher_domain']) || text(payload['agent_url']) || text(event['entity_id']);
}

function form(values: Record<string, string | undefined>): string {
  return html`<p>
      Every change to the registry, in order: properties, collections, agents, publishers’ files and authorizations. The
      feed needs an API key (the dashboard makes one; the demo prints its admin key at first start).
    </p>
    <form method="post" action="/feed" id="feed-form">
      !${textField('API key', 'credential', values['credential'], {
        type: 'password',
        autocomplete: 'off',
        required: true,
      })}
      !${textField('Event types (globs, comma-separated)', 'types', values['types'], {
        placeholder: 'property.*, authorization.*',
        maxlength: 500,
      })}
      !${textField('From cursor (empty: the oldest kept)', 'cursor', values['cursor'], { maxlength: 100 })}
      <button type="submit" id="feed-read">Read</button>
      <button type="button" id="feed-live" class="secondary" hidden>Watch live</button>
      <button type="button" id="feed-pause" class="secondary" hidden>Pause</button>
    </form>
    <p id="feed-status" role="status" aria-live="polite"></p>
    <div class="scroll" tabindex="0" role="region" aria-label="Live events">
      <table id="feed-live-events" hidden>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Type</th>
            <th scope="col">About</th>
            <th scope="col">By</th>
          </tr>
        </thead>
        <tbody></tbody>
      </table>
    </div>`;
}
