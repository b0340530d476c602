// A load generator in a process of its own, so neither the benchmark's other work (reading a
// server's log lines, holding a database connection) nor its garbage collection pauses the client
// mid-measurement. Given a job as JSON on stdin, prints its result as JSON on stdout.
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { freshKeyMark, type LoadJob } from './load.ts';
import { runPaced } from './paced-client.ts';
import { runSoak } from './soak-client.ts';

const job = JSON.parse(await text(process.stdin)) as LoadJob;
if (job.kind === 'max') {
  const { url, seconds, connections, freshKeys, ...request } = job;
  // Each request its own idempotency key, so a mutating task runs every time instead of replaying
  // (or its own URL, so a cached answer is not given again).
  const fresh = (req: autocannon.Request) => ({
    ...req,
    ...(req.body !== undefined ? { body: String(req.body).replaceAll(freshKeyMark, randomUUID()) } : {}),
    ...(req.path !== undefined ? { path: req.path.replaceAll(freshKeyMark, randomUUID()) } : {}),
  });
  const requests = freshKeys ? request.requests?.map((r) => ({ ...r, setupRequest: fresh })) : request.requests;
  const result = await autocannon({ url, duration: seconds, connections, pipelining: 1, ...request, requests });
  console.log(
    JSON.stringify({
      requestsPerSecond: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
    }),
  );
} else if (job.kind === 'paced') {
  console.log(JSON.stringify(await runPaced(job.origin, job.paths, job)));
} else {
  console.log(JSON.stringify(await runSoak(job)));
}
