import type { FastifyInstance } from 'fastify';
import { Type, type TSchema } from 'typebox';
import type { Database } from '../db/database.ts';
import { migrationStatus, type Migration } from '../db/migrate.ts';
import { unreachableRetryAfterSeconds } from '../db/unavailable.ts';
import { ApError } from '../protocol/errors.ts';
import { errorResponses } from '../protocol/wire/error.ts';

const READY_TIMEOUT_MS = 2000;

const Live = Type.Object({ status: Type.Literal('ok') }, { description: 'The process is serving.' });

const Ready = Type.Object(
  {
    status: Type.Literal('ready'),
    engine: Type.String({ description: 'postgres or pglite' }),
    migrations: Type.Object({ applied: Type.Integer(), pending: Type.Integer() }),
  },
  { description: 'The database answers and every migration is applied.' },
);

/**
 * What else must hold before this process takes traffic, as capabilities declare it: each check
 * answers why it is not ready yet, or undefined when it is.
 */
export class Readiness {
  private readonly checks = new Map<string, () => string | undefined>();
  private waiting: Array<() => void> = [];

  add(name: string, check: () => string | undefined): void {
    this.checks.set(name, check);
  }

  /** A capability says one of its checks may have turned: wakes `ready()`'s waiters once all pass. */
  changed(): void {
    if (this.blocker() !== undefined) return;
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }

  /** Settles once every check passes, as a deployment waits on /readyz (tests and tooling wait on it). */
  ready(): Promise<void> {
    if (this.blocker() === undefined) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The first reason not to take traffic, if any. */
  blocker(): string | undefined {
    for (const [name, check] of this.checks) {
      const reason = check();
      if (reason !== undefined) return `${name}: ${reason}`;
    }
    return undefined;
  }

  /** Throws `service_unavailable` naming the first blocker, as /readyz answers it. */
  assertReady(): void {
    const blocker = this.blocker();
    if (blocker !== undefined) throw new ApError('service_unavailable', `Not ready: ${blocker}.`);
  }
}

/**
 * Liveness (the process answers) and readiness (the database answers and is fully migrated, and
 * every capability's readiness check passes, e.g. the authorization index has caught up).
 */
export function registerHealth(app: FastifyInstance, db: Database, migrations: Migration[]): Readiness {
  return registerProbes(
    app,
    {
      description:
        'Answers 200 when the database is reachable, every migration is applied and the in-memory indexes have caught up with the change feed, else 503 saying which is not.',
      ready: Ready,
    },
    async (readiness) => {
      const status = await withTimeout(migrationStatus(db, migrations), READY_TIMEOUT_MS).catch((err: unknown) => {
        throw new ApError('service_unavailable', 'The database is unreachable.', {
          cause: err,
          retryAfter: unreachableRetryAfterSeconds,
        });
      });
      if (status.pending.length > 0) {
        throw new ApError('service_unavailable', `${status.pending.length} migration(s) pending; run \`ap migrate\`.`);
      }
      readiness.assertReady();
      return {
        status: 'ready' as const,
        engine: db.engine,
        migrations: { applied: status.applied.length, pending: 0 },
      };
    },
  );
}

/**
 * `/healthz`, and `/readyz` answering what `answer` says of this server (200 with the `ready`
 * schema, or the `service_unavailable` it throws as 503): the probes every server kind (the
 * registry, a mirror) offers a deployment, each with its own idea of ready. The Readiness returned
 * is the one `answer` is given, for capabilities to add their checks to.
 */
export function registerProbes(
  app: FastifyInstance,
  docs: { description: string; ready: TSchema },
  answer: (readiness: Readiness) => Promise<unknown>,
): Readiness {
  const readiness = new Readiness();
  registerLiveness(app);
  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness',
        description: docs.description,
        tags: ['operations'],
        response: { 200: docs.ready, ...errorResponses(503) },
      },
    },
    () => answer(readiness),
  );
  return readiness;
}

/** `/healthz`: the process answers (it touches nothing else). */
function registerLiveness(app: FastifyInstance): void {
  app.get(
    '/healthz',
    {
      schema: {
        summary: 'Liveness',
        description: 'Answers 200 while the process can serve requests; it does not touch the database.',
        tags: ['operations'],
        response: { 200: Live, ...errorResponses(503) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
