import { asAdmin } from './server.ts';

/** A JSON POST as a client sends it, with the operator credential unless `headers` says otherwise. */
export function postJson(url: string, body: unknown, headers: Record<string, string> = asAdmin): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}
