// The baseline: a bare Node HTTP server answering /healthz with the same body and headers class
// as `ap serve`, so the benchmark measures what the framework and our hooks cost. Given a body on
// its standard input (BARE_BODY=stdin; an answer can be larger than a command line may be), it
// answers every path with that body instead: the floor for an endpoint whose answer the ap
// computes from memory. BARE_BUSY_MICROS makes it spin that long on each request first: a control
// for what any per-request work costs on the machine at hand.
import { createServer } from 'node:http';
import { text } from 'node:stream/consumers';

const constant = process.env.BARE_BODY === 'stdin' ? await text(process.stdin) : undefined;
const body = constant ?? JSON.stringify({ status: 'ok' });
const length = Buffer.byteLength(body);
const busyMs = Number(process.env.BARE_BUSY_MICROS ?? 0) / 1000;
const server = createServer((req, res) => {
  if (busyMs > 0) for (const until = performance.now() + busyMs; performance.now() < until;);
  if (constant !== undefined || req.url === '/healthz') {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': length });
    res.end(body);
  } else {
    res.writeHead(404).end();
  }
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening at http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
