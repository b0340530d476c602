import type { FastifyInstance } from 'fastify';
import { importJWK, SignJWT, type JWK, type JWTHeaderParameters, type JWTPayload } from 'jose';
import type { Database } from '../../src/db/database.ts';
import { json, type Json } from '../support/http.ts';
import { authorizeWith, pkce, REDIRECT_URI, registerClient } from '../support/identity.ts';

export { authorizeWith };
import { callProtected } from '../support/requests.ts';

/** Helpers the auth suites share; the general ones live in test/support/identity.ts. */

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A POST to the token endpoint, form-encoded as OAuth wants. */
export function tokenRequest(base: string, form: Record<string, string>): Promise<Response> {
  return fetch(`${base}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
}

export interface Authorized {
  clientId: string;
  code: string;
  verifier: string;
}

/** Registers a client and obtains an authorization code for `who` with PKCE S256. */
export async function authorizationCode(
  base: string,
  who: { email: string; password: string },
  params: Record<string, string> = {},
): Promise<Authorized> {
  const clientId = await registerClient(base);
  const { verifier, challenge } = pkce();
  const url = await authorizeWith(
    base,
    clientId,
    { scope: 'ap', code_challenge: challenge, code_challenge_method: 'S256', ...params },
    who,
  );
  const code = url.searchParams.get('code');
  if (!code)
    throw new Error(
      `authorization refused: ${url.searchParams.get('error')} ${url.searchParams.get('error_description')}`,
    );
  return { clientId, code, verifier };
}

export function redeem(base: string, { clientId, code, verifier }: Authorized): Promise<Response> {
  return tokenRequest(base, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    code_verifier: verifier,
  });
}

/** The embedded provider's private signing key (an ES256 JWK), as every instance reads it. */
export async function serverSigningKey(db: Database): Promise<JWK> {
  const [row] = await db.query<{ value: JWK }>(`select value from identity_secrets where name = 'oauth_signing_key'`);
  if (!row) throw new Error('no oauth_signing_key yet: the provider makes it on first use');
  return row.value;
}

/** Signs `payload` as a JWS with `key` (a private JWK, or the raw secret of an HMAC). */
export async function signJwt(
  payload: JWTPayload,
  header: JWTHeaderParameters,
  key: JWK | Uint8Array,
): Promise<string> {
  const signingKey = key instanceof Uint8Array ? key : await importJWK(key, header.alg);
  return new SignJWT(payload).setProtectedHeader(header).sign(signingKey);
}

export { callProtected };

/** The status, `WWW-Authenticate` and body of a response, for one assertion message. */
export async function summary(
  res: Response,
): Promise<{ status: number; challenge: string | null; body: Json | string }> {
  const text = await res.text();
  let body: Json | string = text;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, challenge: res.headers.get('www-authenticate'), body };
}

/**
 * Test-only routes showing what the guard made of a credential: `/test/whoami` needs any valid
 * credential, `/test/registry-admin` a registry administrator's. Hidden from the OpenAPI document.
 */
export function addWhoami(app: FastifyInstance): void {
  const schema = { hide: true };
  app.get('/test/whoami', { schema, config: { auth: 'required' } }, async (request) => request.principal);
  app.get(
    '/test/registry-admin',
    { schema, config: { auth: 'required', access: 'registry-admin' } },
    async (request) => request.principal,
  );
}

export async function whoami(
  base: string,
  headers: Record<string, string>,
  path = '/test/whoami',
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${base}${path}`, { headers });
  return { status: res.status, body: await json(res) };
}
