import formbody from '@fastify/formbody';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  HTTPMethods,
  onRequestHookHandler,
} from 'fastify';
import type Provider from 'oidc-provider';
import type { Database } from '../../db/database.ts';
import type { RateLimitRule } from '../../http/rate-limit/rules.ts';
import { signIn } from '../accounts/service.ts';
import { escapeHtml, page, sendHtml, signInForm } from '../../http/html.ts';
import { PROVIDER_ROUTES } from './provider.ts';

/**
 * Mounts the embedded authorization server: the provider's own endpoints, handed the raw request
 * before the framework reads its body, and our sign-in and consent pages for its interactions.
 */
export async function registerAuthorizationServer(
  app: FastifyInstance,
  db: Database,
  provider: () => Promise<Provider>,
  signInLimit: RateLimitRule,
): Promise<void> {
  const handOver: onRequestHookHandler = async (request, reply) => {
    const callback = (await provider()).callback();
    // RFC 8414's well-known name for the same document OpenID discovery serves.
    if (request.raw.url?.startsWith('/.well-known/oauth-authorization-server')) {
      request.raw.url = request.raw.url.replace(
        '/.well-known/oauth-authorization-server',
        '/.well-known/openid-configuration',
      );
    }
    reply.hijack();
    await callback(request.raw, reply.raw);
  };
  // Only the methods the provider serves on each path: anything else falls through to the
  // catalogue's 404, where the provider would answer its own plain-text "Not Found".
  const A = PROVIDER_ROUTES;
  const routes: Array<[string, HTTPMethods[], FastifySchema?]> = [
    [A.authorization, ['GET', 'POST']],
    [`${A.authorization}/:uid`, ['GET']],
    [A.token, ['POST']],
    [A.registration, ['POST'], registrationSchema],
    [`${A.registration}/:clientId`, ['GET']],
    [A.jwks, ['GET']],
    [A.revocation, ['POST']],
    [A.end_session, ['GET', 'POST']],
    [`${A.end_session}/confirm`, ['POST']],
    [`${A.end_session}/success`, ['GET']],
    [A.userinfo, ['GET', 'POST']],
    ['/.well-known/openid-configuration', ['GET']],
    ['/.well-known/oauth-authorization-server', ['GET'], discoverySchema],
  ];
  for (const [url, method, schema = { hide: true }] of routes) {
    app.route({ method, url, schema, onRequest: handOver, handler: async () => undefined });
  }

  await app.register(async (pages) => {
    await pages.register(formbody, { bodyLimit: 16 * 1024 });
    const hidden = { schema: { hide: true } };
    // A person is reading these pages: the provider's errors (an expired or foreign sign-in
    // session, say) are shown as a page that says what to do, not as JSON.
    pages.setErrorHandler((err: Error & { statusCode?: number; error_description?: string }, _request, reply) => {
      if (!err.error_description || !err.statusCode || err.statusCode >= 500) throw err;
      reply.code(err.statusCode);
      return html(
        reply,
        formPage(
          'Sign-in interrupted',
          `<p>${escapeHtml(err.error_description)}.</p><p>Start again from the application that sent you here.</p>`,
        ),
      );
    });

    pages.get<{ Params: { uid: string } }>('/interaction/:uid', hidden, async (request, reply) => {
      const oidc = await provider();
      const details = await oidc.interactionDetails(request.raw, reply.raw);
      if (details.prompt.name === 'login')
        return html(reply, formPage('Sign in', signInForm(`/interaction/${details.uid}/login`)));
      const client = await oidc.Client.find(String(details.params.client_id));
      const name = client?.clientName ?? String(details.params.client_id);
      return html(
        reply,
        formPage(
          'Allow access?',
          `<p><strong>${escapeHtml(name)}</strong> asks to use the ap registry on your behalf.</p>
<form method="post" action="/interaction/${escapeHtml(details.uid)}/confirm"><button type="submit">Allow</button></form>
<form method="post" action="/interaction/${escapeHtml(details.uid)}/abort"><button type="submit">Deny</button></form>`,
        ),
      );
    });

    pages.post<{ Params: { uid: string }; Body: { email?: string; password?: string } }>(
      '/interaction/:uid/login',
      { ...hidden, config: { rateLimit: [signInLimit] } },
      async (request, reply) => {
        const oidc = await provider();
        const details = await oidc.interactionDetails(request.raw, reply.raw);
        const { email = '', password = '' } = (request.body ?? {}) as { email?: string; password?: string };
        const user = await signIn(db, String(email), String(password));
        if (!user) {
          reply.code(401);
          return html(
            reply,
            formPage(
              'Sign in',
              signInForm(`/interaction/${details.uid}/login`, {
                error: 'Wrong email or password.',
                email: String(email),
              }),
            ),
          );
        }
        return finish(request, reply, oidc, { login: { accountId: user.id } }, false);
      },
    );

    pages.post<{ Params: { uid: string } }>('/interaction/:uid/confirm', hidden, async (request, reply) => {
      const oidc = await provider();
      const details = await oidc.interactionDetails(request.raw, reply.raw);
      if (details.prompt.name !== 'consent' || !details.session)
        return reply.code(400).send({ error: 'invalid_request', message: 'Nothing to consent to.' });
      const grant = details.grantId
        ? ((await oidc.Grant.find(details.grantId)) ??
          new oidc.Grant({ accountId: details.session.accountId, clientId: String(details.params.client_id) }))
        : new oidc.Grant({ accountId: details.session.accountId, clientId: String(details.params.client_id) });
      const missing = details.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
        grant.addResourceScope(resource, scopes.join(' '));
      return finish(request, reply, oidc, { consent: { grantId: await grant.save() } }, true);
    });

    pages.post<{ Params: { uid: string } }>('/interaction/:uid/abort', hidden, async (request, reply) => {
      const oidc = await provider();
      return finish(
        request,
        reply,
        oidc,
        { error: 'access_denied', error_description: 'The user denied access.' },
        false,
      );
    });
  });
}

async function finish(
  request: FastifyRequest,
  reply: FastifyReply,
  oidc: Provider,
  result: Record<string, unknown>,
  merge: boolean,
) {
  const location = await oidc.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: merge });
  return reply.redirect(location, 303);
}

/** The sign-in and consent pages: a form or a sentence, in the site's narrow column. */
const formPage = (title: string, body: string) => page(title, body, { narrow: true });

function html(reply: FastifyReply, body: string) {
  return sendHtml(reply, body, reply.statusCode);
}

// Documented for clients; the provider validates and answers, so these only describe. No body
// schema: the request goes to the provider before the framework would read or check it.
const registrationSchema: FastifySchema = {
  summary: 'Register an OAuth client (RFC 7591 dynamic client registration)',
  description:
    'Send client metadata as JSON (`redirect_uris` required). A client that omits `token_endpoint_auth_method` is registered as `client_secret_basic` (the RFC 7591 default) and gets a `client_secret`; send `none` for a public client (PKCE, no secret). Errors are RFC 7591 `{error, error_description}`.',
  tags: ['Authentication'],
  response: {
    201: {
      description: 'The registered client, with its client_id (and client_secret for a confidential client).',
      type: 'object',
      additionalProperties: true,
    },
    400: {
      description: 'Invalid client metadata (`invalid_client_metadata`, `invalid_redirect_uri`).',
      type: 'object',
      additionalProperties: true,
    },
  },
};

const discoverySchema: FastifySchema = {
  summary: 'OAuth authorization server metadata (RFC 8414; the same document as /.well-known/openid-configuration)',
  tags: ['Authentication'],
  response: { 200: { description: 'The authorization server metadata.', type: 'object', additionalProperties: true } },
};
