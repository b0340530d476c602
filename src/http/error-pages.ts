import type { FastifyError, FastifyInstance } from 'fastify';
import { ApError } from '../protocol/errors.ts';
import { escapeHtml, page, sendHtml } from './html.ts';

/** A page saying one thing: a title and a sentence (both text). */
export type MessageView = (title: string, message: string) => string;

const plainMessage: MessageView = (title, message) => page(title, `<p>${escapeHtml(message)}</p>`);

// What a browser's form can get wrong, said so a person can act on it.
const FORM_PROBLEMS: Record<number, string> = {
  413: 'The form is too large.',
  415: 'The form must be sent as application/x-www-form-urlencoded.',
};

/**
 * A person reads these answers in a browser, so failures are pages rather than the API's JSON
 * errors; as there, a 500's detail goes to the log only.
 */
export function renderErrorsAsPages(app: FastifyInstance, messageView: MessageView = plainMessage): void {
  app.setErrorHandler((err: FastifyError | ApError, request, reply) => {
    const status = err instanceof ApError ? err.status : (err.statusCode ?? 500);
    if (status >= 500) {
      request.log.error({ err }, 'request failed');
      return sendHtml(reply, messageView('Something went wrong', 'The request failed. Try again in a moment.'), 500);
    }
    request.log.info({ status }, 'request rejected');
    if (err instanceof ApError && err.retryAfter !== undefined) reply.header('retry-after', String(err.retryAfter));
    const message =
      err instanceof ApError ? err.message : (FORM_PROBLEMS[status] ?? 'The request could not be processed.');
    return sendHtml(reply, messageView('Request refused', message), status);
  });
}
