import { Counter, Gauge, type Registry } from 'prom-client';
import type { RemoteFollower } from './remote-follower.ts';

/** What an operator alerts on for a mirror: how far behind its upstream it may be, and whether it hears it. */
export function mirrorMetrics(registry: Registry, follower: RemoteFollower, counted: { kept: number }): void {
  new Gauge({
    name: 'mirror_lag_seconds',
    help: 'How far behind the upstream the answers may be: 0 while its feed stream is open and caught up.',
    registers: [registry],
    collect() {
      this.set((follower.lagMs() ?? 0) / 1000);
    },
  });
  new Gauge({
    name: 'mirror_streaming',
    help: '1 while the upstream’s feed stream is open and caught up, else 0.',
    registers: [registry],
    collect() {
      this.set(follower.streaming ? 1 : 0);
    },
  });
  new Counter({
    name: 'mirror_bootstraps_total',
    help: 'Times the state was loaded from the upstream’s snapshot (more than one: a cursor expired).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(follower.bootstraps);
    },
  });
  new Counter({
    name: 'mirror_kept_answers_total',
    help: 'Authorization checks answered from kept answers before the framework (not in http_requests_total).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(counted.kept);
    },
  });
}
