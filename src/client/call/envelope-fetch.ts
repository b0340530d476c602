import { errorIn } from '../agents/task-outcome.ts';
import { parseJson } from '../../protocol/json-values.ts';
import { clampRetryAfter } from '../../protocol/retry-after.ts';
import { ApAgentError, transportError } from './agent-error.ts';

/**
 * Wraps the `fetch` the SDK clients use so that an agent's HTTP error answer becomes one typed
 * error before the SDK turns it into a bare status: the creative tasks' `{error: {...}}` with 400,
 * 404 or 422, the signals tasks' `{errors: [...]}`, or no envelope at all (401, 429, 5xx from a
 * proxy). Only POSTs, the calls themselves: the SDKs' own GETs (a card, an optional stream) keep
 * their statuses, which the SDKs read.
 */
export function envelopeFetch(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (response.status < 400 || method !== 'POST') return response;
    const text = await response.text().catch(() => '');
    const retryAfter = response.headers.get('retry-after');
    const error = errorIn(parseJson(text));
    if (error) throw ApAgentError.fromAgent(error, { status: response.status, retryAfter });
    const excerpt = text.slice(0, 200);
    if (response.status === 401 || response.status === 403) {
      throw new ApAgentError(
        'agent',
        response.status === 401 ? 'UNAUTHORIZED' : 'PERMISSION_DENIED',
        `The agent refused the credential (HTTP ${response.status})${excerpt ? `: ${excerpt}` : ''}`,
        { status: response.status },
      );
    }
    if (response.status === 429) {
      const seconds = Number(retryAfter);
      throw ApAgentError.fromAgent(
        { code: 'RATE_LIMITED', message: `The agent is rate limiting this caller (HTTP 429)` },
        { status: 429, retryAfter: Number.isFinite(seconds) ? retryAfter : null },
      );
    }
    const seconds = clampRetryAfter(Number(retryAfter ?? NaN));
    throw transportError(`The agent answered HTTP ${response.status}${excerpt ? `: ${excerpt}` : ''}`, {
      status: response.status,
      retryable: response.status >= 500,
      code: response.status >= 500 ? 'TRANSPORT_ERROR' : 'NOT_AN_AGENT',
      ...(seconds !== undefined ? { retryAfterSeconds: seconds } : {}),
    });
  };
}
