import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type Provider from 'oidc-provider';
import type { Database } from '../../db/database.ts';
import type { RateLimitRule } from '../../http/rate-limit.ts';
import { signIn } from '../accounts/service.ts';
import { escapeHtml, page, signInForm } from '../../http/html.ts';
import { PROVIDER_ROUTES } from './provider.ts';

/**
 * Mounts the embedded authorization server: the provider's own endpoints, handed the raw request
 * before the framework reads its body, and our sign-in and consent pages for its interactions.
 */
export async function registerAuthorizationServer(app: FastifyInstance, db: Database, provider: () => Promise<Provider>, signInLimit: RateLimitRule): Promise<void> {
  const handOver: onRequestHookHandler = async (request, reply) => {
    const callback = (await provider()).callback();
    // RFC 8414's well-known name for the same document OpenID discovery serves.
    if (request.raw.url?.startsWith('/.well-known/oauth-authorization-server')) {
      request.raw.url = request.raw.url.replace('/.well-known/oauth-authorization-server', '/.well-known/openid-configuration');
    }
    reply.hijack();
    await callback(request.raw, reply.raw);
  };
  const paths = [
    ...Object.values(PROVIDER_ROUTES),
    `${PROVIDER_ROUTES.authorization}/:uid`,
    `${PROVIDER_ROUTES.registration}/:clientId`,
    `${PROVIDER_ROUTES.end_session}/confirm`,
    `${PROVIDER_ROUTES.end_session}/success`,
    '/.well-known/openid-configuration',
    '/.well-known/oauth-authorization-server',
  ];
  for (const url of paths) {
    app.route({ method: ['GET', 'POST', 'PUT', 'DELETE'], url, schema: { hide: true }, onRequest: handOver, handler: async () => undefined });
  }

  await app.register(async (pages) => {
    await pages.register(formbody, { bodyLimit: 16 * 1024 });
    const hidden = { schema: { hide: true } };
    // A person is reading these pages: the provider's errors (an expired or foreign sign-in
    // session, say) are shown as a page that says what to do, not as JSON.
    pages.setErrorHandler((err: Error & { statusCode?: number; error_description?: string }, _request, reply) => {
      if (!err.error_description || !err.statusCode || err.statusCode >= 500) throw err;
      reply.code(err.statusCode);
      return html(reply, page('Sign-in interrupted', `<p>${escapeHtml(err.error_description)}.</p><p>Start again from the application that sent you here.</p>`));
    });

    pages.get<{ Params: { uid: string } }>('/interaction/:uid', hidden, async (request, reply) => {
      const oidc = await provider();
      const details = await oidc.interactionDetails(request.raw, reply.raw);
      if (details.prompt.name === 'login') return html(reply, page('Sign in', signInForm(`/interaction/${details.uid}/login`)));
      const client = await oidc.Client.find(String(details.params.client_id));
      const name = client?.clientName ?? String(details.params.client_id);
      return html(
        reply,
        page(
          'Allow access?',
          `<p><strong>${escapeHtml(name)}</strong> asks to use the ap registry on your behalf.</p>
<form method="post" action="/interaction/${escapeHtml(details.uid)}/confirm"><button type="submit">Allow</button></form>
<form method="post" action="/interaction/${escapeHtml(details.uid)}/abort"><button type="submit">Deny</button></form>`,
        ),
      );
    });

    pages.post<{ Params: { uid: string }; Body: { email?: string; password?: string } }>('/interaction/:uid/login', { ...hidden, config: { rateLimit: [signInLimit] } }, async (request, reply) => {
      const oidc = await provider();
      const details = await oidc.interactionDetails(request.raw, reply.raw);
      const { email = '', password = '' } = (request.body ?? {}) as { email?: string; password?: string };
      const user = await signIn(db, String(email), String(password));
      if (!user) {
        reply.code(401);
        return html(reply, page('Sign in', signInForm(`/interaction/${details.uid}/login`, { error: 'Wrong email or password.', email: String(email) })));
      }
      return finish(request, reply, oidc, { login: { accountId: user.id } }, false);
    });

    pages.post<{ Params: { uid: string } }>('/interaction/:uid/confirm', hidden, async (request, reply) => {
      const oidc = await provider();
      const details = await oidc.interactionDetails(request.raw, reply.raw);
      if (details.prompt.name !== 'consent' || !details.session) return reply.code(400).send({ error: 'invalid_request', message: 'Nothing to consent to.' });
      const grant = details.grantId
        ? ((await oidc.Grant.find(details.grantId)) ?? new oidc.Grant({ accountId: details.session.accountId, clientId: String(details.params.client_id) }))
        : new oidc.Grant({ accountId: details.session.accountId, clientId: String(details.params.client_id) });
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '));
      return finish(request, reply, oidc, { consent: { grantId: await grant.save() } }, true);
    });

    pages.post<{ Params: { uid: string } }>('/interaction/:uid/abort', hidden, async (request, reply) => {
      const oidc = await provider();
      return finish(request, reply, oidc, { error: 'access_denied', error_description: 'The user denied access.' }, false);
    });
  });
}

async function finish(request: FastifyRequest, reply: FastifyReply, oidc: Provider, result: Record<string, unknown>, merge: boolean) {
  const location = await oidc.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: merge });
  return reply.redirect(location, 303);
}

function html(reply: FastifyReply, body: string) {
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
}
