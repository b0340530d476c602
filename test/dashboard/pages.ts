import assert from 'node:assert/strict';
import { browse, CookieJar } from '../support/identity.ts';

/** What the dashboard tests do as a signed-in person would, over plain HTTP with a cookie jar. */

export async function signInAs(base: string, who: { email: string; password: string }): Promise<CookieJar> {
  const jar = new CookieJar();
  const res = await browse(jar, `${base}/dashboard/login`, { form: { email: who.email, password: who.password } });
  assert.equal(res.status, 303, `sign-in answered ${res.status}`);
  return jar;
}

export async function keysPage(base: string, jar: CookieJar, org?: string): Promise<string> {
  const res = await browse(jar, `${base}/dashboard/api-keys${org ? `?org=${org}` : ''}`);
  assert.equal(res.status, 200, `the keys page answered ${res.status}`);
  return res.text();
}

/** The CSRF token of the forms on a page. */
export function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  assert.ok(match, 'the page carries a CSRF token');
  return match[1]!;
}

/** Creates a key through the page and returns it as shown, once. */
export async function createKeyThroughPage(
  base: string,
  jar: CookieJar,
  org: string,
  name: string,
  role = 'member',
): Promise<string> {
  const csrf = csrfOf(await keysPage(base, jar, org));
  const res = await browse(jar, `${base}/dashboard/api-keys`, { form: { csrf, org, name, role } });
  assert.equal(res.status, 201, `creating a key answered ${res.status}`);
  const match = /id="new-key"[^>]*>([^<]+)</.exec(await res.text());
  assert.ok(match, 'the new key is shown');
  return match[1]!;
}

export async function revokeThroughPage(base: string, jar: CookieJar, keyId: string, org?: string): Promise<Response> {
  const csrf = csrfOf(await keysPage(base, jar, org));
  return browse(jar, `${base}/dashboard/api-keys/${keyId}/revoke`, { form: { csrf } });
}

export async function agentsPage(base: string, jar: CookieJar, org?: string): Promise<string> {
  const res = await browse(jar, `${base}/dashboard/agents${org ? `?org=${org}` : ''}`);
  assert.equal(res.status, 200, `the agents page answered ${res.status}`);
  return res.text();
}

/** Posts one of the agent pages' forms (`/dashboard/agents` + `path`) with the CSRF token of the organization's agents page. */
export async function postAgentForm(
  base: string,
  jar: CookieJar,
  path: string,
  org: string,
  fields: Record<string, string>,
): Promise<Response> {
  const csrf = csrfOf(await agentsPage(base, jar, org));
  return browse(jar, `${base}/dashboard/agents${path}`, { form: { csrf, org, ...fields } });
}
