// Run as its own process by mirror.bench.ts: an upstream registry of the scale world
// (scale-world.ts: 1M properties) as a mirror reads it, generated on the fly rather than paged
// from a database, so the bench times the mirror's side of a bootstrap: the snapshot pages (each
// publisher's graph and what resolve answers for its entry), an empty public agent catalog, and a
// feed stream that is caught up at once.
import { createServer, type ServerResponse } from 'node:http';
import { entryResolution, PUBLISHERS, publisherDomain, publisherItems } from './scale-world.ts';

const cursor = '01900000-0000-7000-8000-000000000000';

function send(res: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://upstream');
  if (url.pathname === '/api/registry/snapshot') {
    const limit = Number(url.searchParams.get('limit') ?? 500);
    let publisher = Number(url.searchParams.get('page_token') ?? 0);
    const items: unknown[] = [];
    // Whole publishers per page, as many as fit the limit.
    while (publisher < PUBLISHERS && items.length + 23 <= limit) {
      for (const [entity_type, data] of publisherItems(publisher).items)
        items.push({
          entity_type,
          entity_id: String(data['property_rid'] ?? data['id'] ?? publisherDomain(publisher)),
          data,
        });
      const entry = entryResolution(publisher);
      items.push({ entity_type: 'resolution', entity_id: (entry['resolution'] as { id: string }).id, data: entry });
      publisher++;
    }
    const has_more = publisher < PUBLISHERS;
    return send(res, { cursor, items, next_page_token: has_more ? String(publisher) : null, has_more });
  }
  if (url.pathname === '/api/registry/agents')
    return send(res, { agents: [], count: 0, cursor: null, has_more: false });
  if (url.pathname === '/api/registry/feed/stream') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const beat = () => res.write(`event: heartbeat\ndata: ${JSON.stringify({ cursor })}\n\n`);
    beat();
    const timer = setInterval(beat, 15_000);
    res.on('close', () => clearInterval(timer));
    return;
  }
  res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening at http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
