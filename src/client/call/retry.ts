import { setTimeout as delay } from 'node:timers/promises';
import { ApAgentError, asAgentError } from './agent-error.ts';

export interface RetryPolicy {
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** First backoff, doubled at each retry, with jitter (default 500 ms). */
  baseDelayMs?: number;
  /** Longest wait between attempts, `retry_after` included: an agent asking for more is not retried (default 60 s). */
  maxDelayMs?: number;
}

/**
 * Runs `attempt` again while it fails with a retryable error (RATE_LIMITED, SERVICE_UNAVAILABLE, a
 * transient code, HTTP 5xx, the network), waiting the agent's `retry_after` when it gives one and
 * an exponential backoff otherwise. The caller keeps the request identical across attempts (the
 * same idempotency key), so a retried mutation is not done twice.
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy = {},
  signal?: AbortSignal,
  onRetry?: (error: ApAgentError, waitMs: number) => void,
): Promise<T> {
  const retries = policy.retries ?? 3;
  const base = policy.baseDelayMs ?? 500;
  const max = policy.maxDelayMs ?? 60_000;
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      const error = asAgentError(err, signal);
      const waitMs =
        error.retryAfterSeconds !== undefined
          ? error.retryAfterSeconds * 1000
          : Math.min(max, base * 2 ** n) * (0.5 + Math.random() / 2);
      if (!error.retryable || n >= retries || waitMs > max || signal?.aborted) throw error;
      onRetry?.(error, waitMs);
      await delay(waitMs, undefined, signal ? { signal } : undefined).catch(() => {
        throw asAgentError(signal?.reason, signal);
      });
    }
  }
}
