import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { payloadHash } from './hash.ts';
import * as sql from './sql.ts';
import type { Scope } from './sql.ts';

export interface IdempotencySettings {
  clock: Clock;
  /** How long a first response is replayed (advertised as `replay_ttl_seconds`). */
  replayTtlSeconds: number;
  /** A claim still running after this long belongs to a process that died; it may be taken over. */
  leaseSeconds: number;
  /** How long a duplicate waits for a running first request before answering IDEMPOTENCY_IN_PROGRESS. */
  waitSeconds: number;
}

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The key a mutating request must carry: a client-generated UUID v4. */
export function requireKey(args: Record<string, unknown>): string {
  const key = args['idempotency_key'];
  if (typeof key !== 'string' || !uuidV4.test(key)) {
    throw new AgentError('INVALID_REQUEST', 'idempotency_key is required on mutating requests and must be a UUID v4.', {
      field: 'idempotency_key',
      suggestion: 'Generate one with crypto.randomUUID() and reuse it only to retry the same request.',
    });
  }
  return key.toLowerCase();
}

/**
 * Runs `execute` once per key: the first request claims the record and runs; a duplicate with the
 * same payload gets the first success again with `replayed: true` (waiting briefly if it is still
 * running); a different payload is IDEMPOTENCY_CONFLICT, a key past the window IDEMPOTENCY_EXPIRED.
 * Failures are not recorded, so a failed request may be retried with its key.
 */
export async function runOnce(
  db: Database,
  settings: IdempotencySettings,
  scope: Scope,
  task: string,
  args: Record<string, unknown>,
  execute: () => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const hash = payloadHash(args);
  const deadline = Date.now() + settings.waitSeconds * 1000;
  for (;;) {
    const now = settings.clock.now();
    if (await sql.claim(db, scope, task, hash, now)) {
      let response: Record<string, unknown>;
      try {
        response = { ...(await execute()), replayed: false };
      } catch (err) {
        await sql.release(db, scope, now);
        throw err;
      }
      await sql.succeed(db, scope, response);
      return response;
    }
    const row = await sql.find(db, scope);
    if (!row) continue; // the first request failed and let go: claim it
    const age = (now.getTime() - row.created_at.getTime()) / 1000;
    if (age > settings.replayTtlSeconds) throw new AgentError('IDEMPOTENCY_EXPIRED', undefined, { field: 'idempotency_key' });
    if (row.payload_hash !== hash || row.task !== task) throw new AgentError('IDEMPOTENCY_CONFLICT', undefined, { field: 'idempotency_key' });
    if (row.state === 'succeeded') return { ...row.response, replayed: true };
    if (age > settings.leaseSeconds) {
      await sql.release(db, scope, row.created_at);
      continue;
    }
    if (Date.now() >= deadline) throw new AgentError('IDEMPOTENCY_IN_PROGRESS', undefined, { field: 'idempotency_key' });
    await sleep(25);
  }
}

/** Deletes records created before `before` (their keys then count as never seen). */
export function pruneRecords(db: Database, before: Date): Promise<number> {
  return sql.deleteOlderThan(db, before);
}
