import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../clock.ts';
import { systemClock } from '../../clock.ts';
import {
  createWebhookVerifier,
  InMemoryReplayCache,
  type ReplayCache,
  type RevocationList,
  type WebhookJwk,
} from '../../signing/index.ts';

/**
 * A webhook: a task's (agent-tasks section 6: `task_id`, `task_type`, `status`, `timestamp`,
 * `result`) or another event a seller sends (a delivery report, with its own fields). Every one
 * carries the `idempotency_key` its retries share.
 */
export interface WebhookEvent {
  idempotency_key: string;
  task_id?: string;
  task_type?: string;
  status?: string;
  timestamp?: string;
  result?: Record<string, unknown>;
  [field: string]: unknown;
}

/** Which idempotency keys were processed; keep it durable if the receiver restarts (FileSeenKeys). */
export interface SeenKeys {
  /**
   * True when the key was new and is now taken; false when it was processed before (or, for a
   * store that does not tell them apart, is being); `in-progress` when another delivery of it is
   * being processed now, so this one is told to come back (the first may still fail).
   */
  claim(key: string): Promise<boolean | 'in-progress'> | boolean | 'in-progress';
  /** Records a claimed key as processed, before the receiver answers 2xx; a durable store writes it here. */
  commit?(key: string): Promise<void> | void;
  /** Gives a claimed key back when processing failed, so the sender's retry is processed. */
  release(key: string): Promise<void> | void;
}

/** Processed keys in memory (lost at restart: use FileSeenKeys where that matters). */
export class InMemorySeenKeys implements SeenKeys {
  readonly #done = new Set<string>();
  readonly #pending = new Set<string>();
  claim(key: string): boolean | 'in-progress' {
    if (this.#done.has(key)) return false;
    // A retry while the first delivery is processed comes back later: answered 200 now, it would
    // be lost if the first then failed.
    if (this.#pending.has(key)) return 'in-progress';
    this.#pending.add(key);
    return true;
  }
  commit(key: string): void {
    this.#pending.delete(key);
    this.#done.add(key);
  }
  release(key: string): void {
    this.#pending.delete(key);
  }
}

export interface ReceiverOptions {
  resolveKey(keyid: string): Promise<WebhookJwk | undefined>;
  onEvent(event: WebhookEvent): Promise<void> | void;
  seen?: SeenKeys;
  replayCache?: ReplayCache;
  revocation?: RevocationList;
  clock?: Clock;
  /** Hears every delivery not answered 2xx: its status, the `error` code answered, and why (for logs, not for the sender). */
  onRejected?(rejection: WebhookRejection): void;
}

export interface WebhookRejection {
  status: number;
  error: string;
  message: string;
  request: ReceiverRequest;
  /** The event's key, once the body was read. */
  idempotencyKey?: string;
}

export interface ReceiverRequest {
  method: string;
  /** The full URL the sender addressed, as it signed it. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface ReceiverResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The buyer's side of webhooks: verifies the RFC 9421 signature (401 with
 * `WWW-Authenticate: Signature error="<reason>"` when it fails), then hands each event to
 * `onEvent` once per `idempotency_key`; a retry of a processed event is answered 200 without
 * processing it again. Every other answer asks the sender to retry: 500 `processing_failed` when
 * `onEvent` (or recording the key) fails, 503 `in_progress` while another delivery of the same
 * key is processed, 503 `keys_unavailable` when the seller's keys cannot be read.
 */
export function createWebhookReceiver(options: ReceiverOptions) {
  const verifier = createWebhookVerifier({
    resolveKey: options.resolveKey,
    replayCache: options.replayCache ?? new InMemoryReplayCache(),
    clock: options.clock ?? systemClock,
    ...(options.revocation ? { revocation: options.revocation } : {}),
  });
  const seen: SeenKeys = options.seen ?? new InMemorySeenKeys();
  const answer = (
    status: number,
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
  ): ReceiverResponse => ({
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const refuse = (
    request: ReceiverRequest,
    status: number,
    error: string,
    message: string,
    extra: { headers?: Record<string, string>; idempotencyKey?: string } = {},
  ): ReceiverResponse => {
    options.onRejected?.({
      status,
      error,
      message,
      request,
      ...(extra.idempotencyKey === undefined ? {} : { idempotencyKey: extra.idempotencyKey }),
    });
    return answer(status, { error, ...(status === 400 ? { message } : {}) }, extra.headers);
  };

  return {
    async handle(request: ReceiverRequest): Promise<ReceiverResponse> {
      let verified;
      try {
        verified = await verifier.verify(request);
      } catch (err) {
        return refuse(request, 503, 'keys_unavailable', err instanceof Error ? err.message : String(err), {
          headers: { 'retry-after': '30' },
        });
      }
      if (!verified.ok)
        return refuse(request, 401, verified.code, verified.message, {
          headers: { 'www-authenticate': verified.wwwAuthenticate },
        });
      let event: WebhookEvent;
      try {
        event = JSON.parse(request.body) as WebhookEvent;
      } catch {
        return refuse(request, 400, 'invalid_json', 'the body is not JSON');
      }
      if (!event || typeof event !== 'object' || typeof event.idempotency_key !== 'string') {
        return refuse(request, 400, 'invalid_payload', 'idempotency_key is required');
      }
      const key = event.idempotency_key;
      const claimed = await seen.claim(key);
      if (claimed === 'in-progress')
        return refuse(request, 503, 'in_progress', 'another delivery of this event is being processed', {
          headers: { 'retry-after': '1' },
          idempotencyKey: key,
        });
      if (!claimed) return answer(200, { status: 'duplicate' });
      try {
        await options.onEvent(event);
        await seen.commit?.(key);
      } catch (err) {
        await seen.release(key);
        return refuse(request, 500, 'processing_failed', err instanceof Error ? err.message : String(err), {
          idempotencyKey: key,
        });
      }
      return answer(200, { status: 'processed' });
    },
  };
}

export type WebhookReceiver = ReturnType<typeof createWebhookReceiver>;

/**
 * The receiver as a Node request listener. `publicUrl` is where senders address it (what they
 * sign), e.g. `https://buyer.example`; bodies over 1 MiB are refused.
 */
export function receiverListener(receiver: WebhookReceiver, publicUrl: string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 1024 * 1024) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', publicUrl).href;
      receiver
        .handle({
          method: req.method ?? 'POST',
          url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        })
        .then(
          (out) => res.writeHead(out.status, out.headers).end(out.body),
          () => res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal_error"}'),
        );
    });
  };
}
