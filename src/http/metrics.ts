import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../db/database.ts';

/**
 * Prometheus metrics: requests by route and status, a latency histogram, the database pool and the
 * process (no pool without a database: a mirror). The route label is the route's pattern (`/api/brands/resolve`), never the raw URL, so
 * hostile URLs cannot grow the label set; unmatched requests share the label `unmatched`.
 */
export function registerMetrics(app: FastifyInstance, db: Database | undefined): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  // Requests are counted per series in plain maps and handed to the counter when it is scraped;
  // the latency histogram's children are bound once per method and route. Labelling and hashing
  // on every request cost more than the rest together. The maps are keyed by the route pattern and
  // method strings themselves, which the framework hands over interned, so no key is built per request.
  const byRoute = new Map<string, Map<string, Series>>();
  /** Every status series, in the order they first appeared: the counter's series keep that order. */
  const counts: StatusCount[] = [];
  new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    collect() {
      for (const entry of counts) {
        if (entry.count === 0) continue;
        this.inc(entry.labels, entry.count);
        entry.count = 0;
      }
    },
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request received to response sent, by method and route.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // A mirror has no database.
  if (db)
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database connections by state (total, idle, waiting callers).',
      labelNames: ['engine', 'state'] as const,
      registers: [registry],
      collect() {
        const stats = db.stats();
        for (const state of ['total', 'idle', 'waiting'] as const) this.set({ engine: db.engine, state }, stats[state]);
      },
    });

  app.addHook('onResponse', (request, reply, done) => {
    const { method } = request;
    const route = request.routeOptions.url ?? 'unmatched';
    let byMethod = byRoute.get(route);
    if (!byMethod) byRoute.set(route, (byMethod = new Map()));
    let series = byMethod.get(method);
    if (!series) byMethod.set(method, (series = { latency: latency.labels(method, route), statuses: new Map() }));
    const status = reply.statusCode;
    let counted = series.statuses.get(status);
    if (!counted) {
      counted = { labels: { method, route, status: String(status) }, count: 0 };
      series.statuses.set(status, counted);
      counts.push(counted);
    }
    counted.count++;
    series.latency.observe(reply.elapsedTime / 1000);
    done();
  });

  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Prometheus metrics',
        tags: ['operations'],
        response: {
          200: {
            description: 'Metrics in the Prometheus text format.',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
        },
      },
    },
    async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()),
  );
  return registry;
}

/** Requests of one method and route: its latency child and its counts by status. */
interface Series {
  latency: { observe(seconds: number): void };
  statuses: Map<number, StatusCount>;
}

/** Requests of one series not yet handed to the counter. */
interface StatusCount {
  labels: { method: string; route: string; status: string };
  count: number;
}
