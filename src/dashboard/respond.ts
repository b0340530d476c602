import type { FastifyReply } from 'fastify';

/**
 * Sends a dashboard page. Pages show keys and per-session tokens, so no cache keeps them; no
 * other site may frame them (clickjacking the Revoke button) and forms post only here.
 */
export function sendHtml(reply: FastifyReply, html: string, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    )
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin')
    .send(html);
}
