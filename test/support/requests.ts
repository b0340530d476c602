import { asAdmin } from './server.ts';

/** A JSON POST as a client sends it, with the operator credential unless `headers` says otherwise. */
export function postJson(url: string, body: unknown, headers: Record<string, string> = asAdmin): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

let challenges = 0;

/**
 * A call to a credential-required endpoint that needs nothing else: asking for an ownership
 * challenge (201 for any credential acting for an organization). Saves need a proof on top, so
 * tests about credentials use this instead.
 */
export function callProtected(
  base: string,
  headers: Record<string, string>,
  domain = `probe-${process.pid}-${++challenges}.example`,
): Promise<Response> {
  return postJson(`${base}/api/ownership/challenges`, { domain }, headers);
}
