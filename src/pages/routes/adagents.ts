import type { FastifyInstance, FastifyReply } from 'fastify';
import { html } from 'ghtml';
import { page, sendHtml } from '../../http/html.ts';
import type { ApiAnswer, ApiReader, Json } from '../api.ts';
import { object, refusal, table, text } from '../parts.ts';
import { fields } from './form-fields.ts';
import { records } from '../../protocol/json-values.ts';

const propertyTypes = [
  'website',
  'mobile_app',
  'ctv_app',
  'desktop_app',
  'dooh',
  'podcast',
  'radio',
  'streaming_audio',
];
const identifierTypes = [
  'domain',
  'subdomain',
  'ios_bundle',
  'android_package',
  'apple_app_store_id',
  'google_play_id',
  'roku_store_id',
  'fire_tv_asin',
  'rss_url',
];
/** Rows of each kind the form offers; blank rows are left out. */
const rows = 3;

type Form = Record<string, string | undefined>;

/**
 * `/adagents`: the adagents.json builder (a publisher's properties and agents → the file, made and
 * checked by `POST /api/adagents/create`) and validator (a domain's file as the registry fetches it,
 * or a pasted document → `POST /api/adagents/validate`'s findings, each with the JSON pointer it
 * is about). Plain forms; each blank row is left out.
 */
export function adagentsRoute(app: FastifyInstance, api: ApiReader): void {
  const show = (reply: FastifyReply, form: Form, result: string, status = 200) =>
    sendHtml(reply, page('adagents.json', forms(form) + result, { section: '/adagents' }), status, false);

  app.get<{ Querystring: { domain?: string } }>(
    '/adagents',
    {
      schema: {
        hide: true,
        querystring: { type: 'object', properties: { domain: { type: 'string', maxLength: 253 } } },
      },
    },
    async (request, reply) => show(reply, { publisher_domain: request.query.domain, domain: request.query.domain }, ''),
  );

  app.post('/adagents', { schema: { hide: true } }, async (request, reply) => {
    const form = fields(request.body, 100_000);
    if (form['action'] === 'validate') {
      const pasted = form['document']?.trim();
      let document: unknown;
      if (pasted) {
        try {
          document = JSON.parse(pasted);
        } catch (err) {
          return show(
            reply,
            form,
            html`<p class="error" role="alert">The pasted document is not JSON: ${(err as Error).message}</p>`,
            400,
          );
        }
      }
      const answer = await api(
        request,
        '/api/adagents/validate',
        undefined,
        pasted ? { document } : { domain: form['domain'] ?? '' },
      );
      return show(
        reply,
        form,
        answer.status === 200 ? findings('Validation', answer.body) : refusal(answer),
        answer.status,
      );
    }
    const answer = await api(request, '/api/adagents/create', undefined, built(form));
    if (answer.status !== 200) return show(reply, form, refusal(answer), answer.status);
    return show(reply, form, made(answer));
  });
}

/** The create request the builder's form says. */
function built(form: Form): Json {
  const value = (name: string) => form[name]?.trim() ?? '';
  const properties = Array.from({ length: rows }, (_, i) => i)
    .filter((i) => value(`p${i}_name`) || value(`p${i}_value`))
    .map((i) => ({
      property_id: value(`p${i}_id`) || `property_${i + 1}`,
      property_type: value(`p${i}_type`) || 'website',
      name: value(`p${i}_name`) || value(`p${i}_value`),
      identifiers: [{ type: value(`p${i}_identifier`) || 'domain', value: value(`p${i}_value`) }],
    }));
  const agents = Array.from({ length: rows }, (_, i) => i)
    .filter((i) => value(`a${i}_url`))
    .map((i) => ({ url: value(`a${i}_url`), ...(value(`a${i}_for`) ? { authorized_for: value(`a${i}_for`) } : {}) }));
  return {
    publisher_domain: value('publisher_domain'),
    ...(properties.length > 0 ? { properties } : {}),
    authorized_agents: agents,
    ...(value('contact_email')
      ? { contact: { name: value('contact_name') || value('publisher_domain'), email: value('contact_email') } }
      : {}),
  };
}

function made(answer: ApiAnswer): string {
  const data = object(answer.body['data']);
  const file = JSON.stringify(answer.body['document'] ?? data['adagents_json'], null, 2);
  return html`<section aria-labelledby="made">
    <h2 id="made">Your adagents.json</h2>
    <p>Serve it at <code>https://${text(object(data['validation'])['domain'])}/.well-known/adagents.json</code>.</p>
    <label for="made-file">The file</label><textarea id="made-file" readonly rows="16">${file}</textarea>
    !${findings('Checks of the file', object(data['validation']))}
  </section>`;
}

/** Errors and warnings, each with the JSON pointer of what it is about. */
function findings(title: string, result: Json): string {
  const errors = records(result['errors']);
  const warnings = records(result['warnings']);
  const rowOf = (severity: string) => (f: Json) =>
    html`<tr>
      <td>${severity}</td>
      <td><code>${text(f['code'])}</code></td>
      <td>${text(f['message'])}</td>
      <td><code>${text(f['path']) || '/'}</code></td>
    </tr>`;
  const source = object(result['source']);
  return html`<section class="verdict ${result['valid'] === true ? 'good' : 'bad'}" aria-label="${title}">
    <h2>${result['valid'] === true ? 'Valid' : 'Not valid'}</h2>
    !${text(source['url']) ? html`<p>Read from <code>${text(source['url'])}</code>.</p>` : ''}
    !${table(title, ['Severity', 'Code', 'Message', 'Where'], [...errors.map(rowOf('error')), ...warnings.map(rowOf('warning'))], 'No finding.')}
  </section>`;
}

function forms(form: Form): string {
  const value = (name: string) => form[name] ?? '';
  const options = (choices: readonly string[], chosen: string) =>
    choices.map(
      (c) => html`<option value="${c}" ${c === chosen ? ' selected' : ''}>${c.replaceAll('_', ' ')}</option>`,
    );
  const propertyRows = Array.from(
    { length: rows },
    (_, i) =>
      html`<fieldset>
        <legend>Property ${i + 1}</legend>
        <label for="p${i}_name">Name</label
        ><input id="p${i}_name" name="p${i}_name" type="text" maxlength="200" value="${value(`p${i}_name`)}" />
        <label for="p${i}_type">Type</label
        ><select id="p${i}_type" name="p${i}_type">
          !${options(propertyTypes, value(`p${i}_type`))}
        </select>
        <label for="p${i}_identifier">Identifier type</label
        ><select id="p${i}_identifier" name="p${i}_identifier">
          !${options(identifierTypes, value(`p${i}_identifier`))}
        </select>
        <label for="p${i}_value">Identifier</label
        ><input id="p${i}_value" name="p${i}_value" type="text" maxlength="500" value="${value(`p${i}_value`)}" />
        <label for="p${i}_id">Property id</label
        ><input id="p${i}_id" name="p${i}_id" type="text" maxlength="255" value="${value(`p${i}_id`)}" />
      </fieldset>`,
  );
  const agentRows = Array.from(
    { length: rows },
    (_, i) =>
      html`<fieldset>
        <legend>Agent ${i + 1}</legend>
        <label for="a${i}_url">Agent URL</label
        ><input id="a${i}_url" name="a${i}_url" type="url" maxlength="2048" value="${value(`a${i}_url`)}" />
        <label for="a${i}_for">Authorized for</label
        ><input id="a${i}_for" name="a${i}_for" type="text" maxlength="500" value="${value(`a${i}_for`)}" />
      </fieldset>`,
  );
  return html`<p>Build the file that says which agents may sell a publisher’s inventory, or check one.</p>
    <h2>Build</h2>
    <form method="post" action="/adagents">
      <input type="hidden" name="action" value="create" /> <label for="publisher_domain">Publisher domain</label
      ><input
        id="publisher_domain"
        name="publisher_domain"
        type="text"
        required
        maxlength="253"
        value="${value('publisher_domain')}"
      />
      !${propertyRows}!${agentRows}
      <label for="contact_name">Contact name</label
      ><input id="contact_name" name="contact_name" type="text" maxlength="200" value="${value('contact_name')}" />
      <label for="contact_email">Contact email</label
      ><input id="contact_email" name="contact_email" type="email" maxlength="200" value="${value('contact_email')}" />
      <button type="submit">Build adagents.json</button>
    </form>
    <h2>Validate</h2>
    <form method="post" action="/adagents">
      <input type="hidden" name="action" value="validate" />
      <label for="domain">A publisher’s domain (its file as the registry fetches it)</label
      ><input id="domain" name="domain" type="text" maxlength="253" value="${value('domain')}" />
      <label for="document">Or the document, pasted</label
      ><textarea id="document" name="document" rows="10">${value('document')}</textarea>
      <button type="submit">Validate</button>
    </form>`;
}
