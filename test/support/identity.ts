import { createHash, randomBytes, randomUUID, scryptSync } from 'node:crypto';
import { createApiKeyFor } from './identity-keys.ts';
import type { Database } from '../../src/db/database.ts';
import {
  addMember,
  createOrganization,
  LOCAL_ISSUER,
  organizationBySlug,
  type Role,
  type UserRow,
} from '../../src/auth/accounts/service.ts';
import { insertUser } from '../../src/auth/accounts/sql.ts';
import { recordProof } from '../../src/registry/ownership/sql.ts';

export { createApiKeyFor };

let counter = 0;
const unique = (stem: string) => `${stem}-${process.pid}-${++counter}`;

/** An organization with a fresh slug (or the one given). */
export async function seedOrganization(
  db: Database,
  options: { slug?: string; apiTier?: boolean; admin?: boolean } = {},
) {
  return createOrganization(db, {
    slug: options.slug ?? unique('org'),
    apiTier: options.apiTier,
    admin: options.admin,
  });
}

export interface SeededUser {
  user: UserRow;
  email: string;
  password: string;
}

/**
 * A local user who can sign in, member of `organization` (a slug) with `role` when given. The row
 * is the one createLocalUser writes, but its password is hashed at a cost 128 times lower than
 * OWASP's: the scrypt parameters travel with the hash, so signing in verifies it as any other,
 * and at the real cost each seeded user and each of their sign-ins would take 0.7 s (most of what
 * the dashboard tests spend). test/auth/accounts/passwords.test.ts covers the real cost.
 */
export async function seedUser(
  db: Database,
  options: { organization?: string; role?: Role; email?: string } = {},
): Promise<SeededUser> {
  const email = options.email ?? `${unique('user')}@example.test`;
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const id = randomUUID();
  const user = await insertUser(db, {
    id,
    issuer: LOCAL_ISSUER,
    subject: id,
    email,
    display_name: email,
    password_hash: cheaplyHashed(password),
  });
  if (!user) throw new Error(`a user with the email ${email} exists already`);
  if (options.organization) await addMember(db, options.organization, user.id, options.role ?? 'member');
  return { user, email, password };
}

/** What hashPassword writes (`scrypt$N$r$p$salt$key`, the password NFKC-normalized, a 32-byte key), at N = 2^10. */
function cheaplyHashed(password: string): string {
  const [N, r, p] = [2 ** 10, 8, 1];
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Records that `organization` (a slug) proved control of `domain`, as a verified challenge does,
 * for tests about something else than the proof itself.
 */
export async function proveOwnership(
  db: Database,
  organization: string,
  domain: string,
  at = new Date(),
): Promise<void> {
  const org = await organizationBySlug(db, organization);
  if (!org) throw new Error(`no organization ${organization}`);
  await recordProof(db, org.id, domain, 'dns', at);
}

/** Remembers cookies across requests the way a browser would for one site (paths ignored). */
export class CookieJar {
  readonly #cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now()),
      );
      if (expired) this.#cookies.delete(name);
      else this.#cookies.set(name, pair.slice(eq + 1).trim());
    }
  }
  header(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** One request with the jar's cookies, not following redirects. */
export async function browse(
  jar: CookieJar,
  url: string,
  init: { method?: string; form?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { cookie: jar.header() };
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const res = await fetch(url, {
    method: init.method ?? (init.form ? 'POST' : 'GET'),
    headers,
    body,
    redirect: 'manual',
  });
  jar.take(res);
  return res;
}

export interface PkcePair {
  verifier: string;
  challenge: string;
}

export function pkce(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

/** Registers a public client (RFC 7591), as an MCP client does on first contact. */
export async function registerClient(base: string): Promise<string> {
  const res = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'Test client',
    }),
  });
  if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { client_id: string }).client_id;
}

/**
 * Sends an authorization request with exactly `params` (plus client_id, redirect_uri and state)
 * and walks it like a browser, signing in as `who` when asked. Resolves with the URL the user is
 * finally sent back to on the client: `code` on success, `error` when the request is refused
 * (parameters sent in the fragment are moved to the query).
 */
export async function authorizeWith(
  base: string,
  clientId: string,
  params: Record<string, string>,
  who?: { email: string; password: string },
): Promise<URL> {
  const state = randomUUID();
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    state,
    ...params,
  });
  const url = await followAuthorization(base, `${base}/authorize?${query}`, who);
  if (url.searchParams.get('state') !== state) throw new Error(`state did not round-trip: ${url}`);
  return url;
}

/**
 * Walks an authorization request (`start`, the whole `/authorize` URL a client made) like a
 * browser, signing in as `who` and consenting when asked; resolves with the URL the user is sent
 * back to on the client (`REDIRECT_URI`).
 */
export async function followAuthorization(
  base: string,
  start: string,
  who?: { email: string; password: string },
): Promise<URL> {
  const jar = new CookieJar();
  let res = await browse(jar, start);
  for (let hops = 0; hops < 10; hops++) {
    const location = res.headers.get('location');
    if (!location) throw new Error(`authorization stopped at HTTP ${res.status}: ${await res.text()}`);
    const url = new URL(location, base);
    if (url.href.startsWith(REDIRECT_URI)) {
      // Responses for id_token response types come in the fragment: read them as a query.
      if (url.hash) url.search = url.hash.slice(1);
      return url;
    }
    if (url.pathname.startsWith('/interaction/')) {
      if (!who) throw new Error('the request reached sign-in although the test expected a refusal');
      const page = await (await browse(jar, url.href)).text();
      res = page.includes('name="password"')
        ? await browse(jar, `${url.href}/login`, { form: { email: who.email, password: who.password } })
        : await browse(jar, `${url.href}/confirm`, { form: {} });
    } else {
      res = await browse(jar, url.href);
    }
  }
  throw new Error('authorization did not finish within 10 redirects');
}

/** The authorization-code flow as a user's browser walks it: authorize, sign in, allow; returns the code. */
export async function authorize(
  base: string,
  clientId: string,
  who: { email: string; password: string },
  challenge: string,
  resource?: string,
): Promise<string> {
  const params: Record<string, string> = {
    scope: 'ap',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(resource ? { resource } : {}),
  };
  const url = await authorizeWith(base, clientId, params, who);
  const code = url.searchParams.get('code');
  if (!code)
    throw new Error(
      `authorization refused: ${url.searchParams.get('error')} ${url.searchParams.get('error_description')}`,
    );
  return code;
}

export async function exchangeCode(base: string, clientId: string, code: string, verifier: string): Promise<Response> {
  return fetch(`${base}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
    }),
  });
}

/** An access token for a local user, through the whole OAuth flow. */
export async function accessToken(
  base: string,
  who: { email: string; password: string },
  resource?: string,
): Promise<string> {
  const clientId = await registerClient(base);
  const { verifier, challenge } = pkce();
  const code = await authorize(base, clientId, who, challenge, resource);
  const res = await exchangeCode(base, clientId, code, verifier);
  if (res.status !== 200) throw new Error(`token exchange answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });
