import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { publicTestCredential } from '../../src/config.ts';
import { signWebhook, type WebhookSigningKey } from '../../src/signing/index.ts';
import { mcpClient } from '../support/agents.ts';
import { runAp, serveAp, startAp, type RunningAp, type ServingAp } from '../support/cli.ts';
import { seedPgliteDirectory } from '../support/engines.ts';
import { Conditions } from '../support/events.ts';
import type { Json } from '../support/http.ts';

/** What reached the buyer's edge and what the listener answered it. */
interface Delivery {
  path: string;
  headers: Record<string, string>;
  body: string;
  answer: { status: number; body: Json };
}

/**
 * The buyer's edge, as a tunnel or reverse proxy in front of `ap webhooks listen`: the seller
 * addresses it (and signs its URL), it passes each delivery on to the listener and keeps what
 * came and what the listener said. `loseAnswer` makes the next delivery to a path reach the
 * listener but its answer never reach the seller, which sees 503 (after `hold`, when given) and
 * retries.
 */
class Edge {
  url = '';
  target = '';
  readonly deliveries: Delivery[] = [];
  readonly arrivals = new Conditions();
  private readonly lost = new Map<string, Promise<void>>();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void this.pass(req, Buffer.concat(chunks).toString('utf8'), res));
  });

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  loseAnswer(path: string, hold: Promise<void> = Promise.resolve()): void {
    this.lost.set(path, hold);
  }

  to(path: string): Delivery[] {
    return this.deliveries.filter((d) => d.path === path);
  }

  until(check: () => boolean): Promise<void> {
    return this.arrivals.until(check);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async pass(req: http.IncomingMessage, body: string, res: http.ServerResponse): Promise<void> {
    const path = req.url!;
    const headers = Object.fromEntries(
      ['content-type', 'content-digest', 'signature-input', 'signature']
        .filter((h) => req.headers[h])
        .map((h) => [h, String(req.headers[h])]),
    );
    let answer: Delivery['answer'];
    try {
      const reply = await fetch(`${this.target}${path}`, { method: req.method!, headers, body });
      answer = { status: reply.status, body: (await reply.json()) as Json };
    } catch (err) {
      answer = { status: 502, body: { error: String(err) } };
    }
    this.deliveries.push({ path, headers, body, answer });
    this.arrivals.changed();
    const hold = this.lost.get(path);
    if (hold) {
      this.lost.delete(path);
      await hold;
      return void res.writeHead(503).end();
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  }
}

/** The buyer's own service `--forward` posts to; `failNext` answers the next ones 502. */
class Sink {
  url = '';
  readonly events: Json[] = [];
  failNext = 0;
  /** Served at /adagents.json, for a listener's --adagents. */
  adagents: Json = {};
  private readonly server = http.createServer((req, res) => {
    if (req.method === 'GET')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.adagents));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (this.failNext > 0) {
        this.failNext--;
        return void res.writeHead(502).end();
      }
      assert.equal(req.headers['content-type'], 'application/json');
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
      assert.equal(req.headers['idempotency-key'], event.idempotency_key);
      this.events.push(event);
      res.writeHead(204).end();
    });
  });

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const count = (lines: readonly string[], text: string) => lines.filter((l) => l.includes(text)).length;

describe('[pglite] ap webhooks listen, receiving the test deployment’s sales agent', () => {
  let dir: string;
  let server: ServingAp;
  let sales: Client;
  let account: { account_id: string };
  let listener: RunningAp;
  let listenerUrl = '';
  const stateDir = () => join(dir, 'state');
  const edge = new Edge();
  const sink = new Sink();
  const brand = `brand-${randomUUID().slice(0, 8)}.example`;
  /** The task ids each test's buy completed with. */
  const tasks: string[] = [];

  const listen = async (state: string, extra: string[] = []) => {
    const running = startAp([
      'webhooks',
      'listen',
      '--port',
      '0',
      '--agent',
      `${server.url}/sales/mcp`,
      '--state-dir',
      state,
      '--public-url',
      edge.url,
      '--allow',
      `${new URL(server.url).host},${new URL(sink.url).host}`,
      ...extra,
    ]);
    const started = await running.line('stderr', /listening at http:\/\/\S+/);
    return { running, url: /listening at (http:\/\/\S+)/.exec(started)![1]! };
  };
  const start = async (state = stateDir()) => {
    ({ running: listener, url: listenerUrl } = await listen(state, ['--forward', `${sink.url}/events`]));
    edge.target = listenerUrl;
  };

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await sales.callTool({ name, arguments: args })) as Json;
    assert.equal(result.isError, undefined, result.content[0].text as string);
    return JSON.parse(result.content[0].text as string) as Json;
  };
  /** A buy that waits for the publisher's approval, completed in the background and pushed to `<edge>/hooks/<path>`. */
  const buy = async (path: string): Promise<string> => {
    const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
    const accepted = await call('create_media_buy', {
      idempotency_key: randomUUID(),
      account,
      brand: { domain: brand },
      start_time: days(10),
      end_time: days(40),
      packages: [{ product_id: 'dh_homepage_takeover', pricing_option_id: 'takeover_day_flat', budget: 18000 }],
      push_notification_config: {
        url: `${edge.url}/hooks/${path}`,
        authentication: { schemes: ['HTTP_MESSAGE_SIGNATURES'] },
      },
    });
    assert.equal(accepted.status, 'submitted');
    tasks.push(accepted.task_id as string);
    return accepted.task_id as string;
  };
  const send = async (path: string, headers: Record<string, string>, body: string) => {
    const res = await fetch(`${listenerUrl}${path}`, { method: 'POST', headers, body });
    return { status: res.status, authenticate: res.headers.get('www-authenticate'), body: (await res.json()) as Json };
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ap-webhooks-'));
    await Promise.all([edge.listen(), sink.listen(), seedPgliteDirectory(join(dir, 'db'), 'migrated')]);
    // The seller may reach the buyer's edge on loopback, and retries at once rather than after a second.
    server = await serveAp(['--data-dir', join(dir, 'db')], {
      AGENTS: 'true',
      AP_FETCH_ALLOW: new URL(edge.url).host,
      AGENT_WEBHOOK_RETRY_BASE_MS: '1',
    });
    await start();
    sales = await mcpClient(server.url, '/sales', { authorization: `Bearer ${publicTestCredential}` });
    const synced = await call('sync_accounts', {
      idempotency_key: randomUUID(),
      accounts: [{ brand: { domain: brand }, operator: brand, billing: 'operator' }],
    });
    account = { account_id: (synced.accounts as Json[])[0]!.account_id as string };
  });
  after(async () => {
    await sales?.close();
    await listener?.stop('SIGKILL');
    await server?.stop();
    await Promise.all([edge.close(), sink.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('documents its answers and their reason codes in --help, and refuses to start without a seller', async () => {
    const help = await runAp(['webhooks', 'listen', '--help']);
    assert.equal(help.code, 0);
    for (const text of [
      '--forward',
      '--state-dir',
      '--adagents',
      '--pin-file',
      '--allow',
      'webhook_signature_digest_mismatch',
      'webhook_signature_window_invalid',
      'processing_failed',
      'in_progress',
      'keys_unavailable',
    ]) {
      assert.match(help.stdout, new RegExp(text));
    }
    const bare = await runAp(['webhooks', 'listen', '--port', '0', '--state-dir', join(dir, 'unused')]);
    assert.equal(bare.code, 1);
    assert.match(bare.stderr, /name the seller with --brand-json or --agent/);
  });

  it('verifies the sales agent’s signed webhook, prints it on one line and forwards it once', async () => {
    const taskId = await buy('first');
    const line = await listener.line('stdout', new RegExp(taskId));
    await edge.until(() => edge.to('/hooks/first').length === 1);
    const [delivery] = edge.to('/hooks/first');
    assert.deepEqual(delivery!.answer, { status: 200, body: { status: 'processed' } });
    const event = JSON.parse(delivery!.body) as Json;
    assert.equal(
      line,
      `${line.slice(0, 24)}  create_media_buy/completed  task_id=${taskId}  idempotency_key=${event.idempotency_key}`,
    );
    assert.ok(!Number.isNaN(Date.parse(line.slice(0, 24))), 'led by the time it arrived');
    const forwarded = sink.events.filter((e) => e.task_id === taskId);
    assert.equal(forwarded.length, 1);
    assert.deepEqual(forwarded[0], event, 'the verified event, as the seller sent it');
    assert.match((event.result as Json).media_buy_id, /^mb_/);
  });

  it('rejects altered deliveries with 401 and the reason, printing them on stderr only', async () => {
    const [original] = edge.to('/hooks/first');
    const { headers, body } = original!;
    const keyid = /keyid="([^"]+)"/.exec(headers['signature-input']!)![1]!;
    const stranger = {
      ...generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }),
      kid: keyid,
    } as WebhookSigningKey;
    const signedBy = (key: WebhookSigningKey) => {
      const signed = signWebhook({ method: 'POST', url: `${edge.url}/hooks/first`, body }, key);
      return Object.fromEntries(Object.entries(signed.headers).map(([k, v]) => [k.toLowerCase(), v]));
    };
    const signature = headers['signature']!;
    const flipped = signature.slice(0, 10) + (signature[10] === 'A' ? 'B' : 'A') + signature.slice(11);
    const shift = (input: string) =>
      input
        .replace(/created=(\d+)/, (_m, s) => `created=${Number(s) - 3600}`)
        .replace(/expires=(\d+)/, (_m, s) => `expires=${Number(s) - 3600}`);
    const cases: Array<[string, Record<string, string>, string, string]> = [
      ['body changed', headers, body.replace('"completed"', '"failed"'), 'webhook_signature_digest_mismatch'],
      ['signature changed', { ...headers, signature: flipped }, body, 'webhook_signature_invalid'],
      ['signed with another key under the seller’s keyid', signedBy(stranger), body, 'webhook_signature_invalid'],
      [
        'signed with a key the seller does not publish',
        signedBy({ ...stranger, kid: 'not-the-sellers' }),
        body,
        'webhook_signature_key_unknown',
      ],
      [
        'an hour old',
        { ...headers, 'signature-input': shift(headers['signature-input']!) },
        body,
        'webhook_signature_window_invalid',
      ],
      ['the delivery itself, again (its nonce is spent)', headers, body, 'webhook_signature_replayed'],
    ];
    const printed = listener.stdout.length;
    for (const [what, h, b, reason] of cases) {
      const answer = await send('/hooks/first', h, b);
      assert.deepEqual(
        [answer.status, answer.body, answer.authenticate],
        [401, { error: reason }, `Signature error="${reason}"`],
        what,
      );
      await listener.line('stderr', new RegExp(`rejected 401 ${reason}  POST /hooks/first`));
    }
    const forwarded = sink.events.length;
    assert.equal(count(listener.stdout, 'task_id='), printed, 'nothing printed');
    assert.equal(sink.events.length, forwarded, 'nothing forwarded');
  });

  it('processes a retried delivery once: the seller’s retry after a lost answer is answered 200 as a duplicate', async () => {
    edge.loseAnswer('/hooks/lost');
    const taskId = await buy('lost');
    await edge.until(() => edge.to('/hooks/lost').length === 2);
    const [first, retry] = edge.to('/hooks/lost');
    assert.equal(JSON.parse(retry!.body).idempotency_key, JSON.parse(first!.body).idempotency_key, 'the same event');
    assert.notEqual(retry!.headers['signature'], first!.headers['signature'], 'signed again');
    assert.deepEqual(
      [first!.answer, retry!.answer],
      [
        { status: 200, body: { status: 'processed' } },
        { status: 200, body: { status: 'duplicate' } },
      ],
    );
    assert.equal(sink.events.filter((e) => e.task_id === taskId).length, 1);
  });

  it('answers 500 when forwarding fails and gives the key back: the seller’s retry is processed, forwarded and printed', async () => {
    sink.failNext = 1;
    const taskId = await buy('forward');
    await edge.until(() => edge.to('/hooks/forward').length === 2);
    assert.deepEqual(
      edge.to('/hooks/forward').map((d) => d.answer),
      [
        { status: 500, body: { error: 'processing_failed' } },
        { status: 200, body: { status: 'processed' } },
      ],
    );
    await listener.line(
      'stderr',
      /rejected 500 processing_failed {2}POST \/hooks\/forward {2}idempotency_key=\S+ {2}\(forwarding to http:\S+ failed: HTTP 502\)/,
    );
    await listener.line('stdout', new RegExp(taskId));
    assert.equal(sink.events.filter((e) => e.task_id === taskId).length, 1);
  });

  it('keeps what it processed across a restart: a retry reaching the new process is a duplicate, answered 200, not printed', async () => {
    let reachRestarted!: () => void;
    edge.loseAnswer('/hooks/restart', new Promise<void>((resolve) => (reachRestarted = resolve)));
    const taskId = await buy('restart');
    await edge.until(() => edge.to('/hooks/restart').length === 1);
    assert.deepEqual(edge.to('/hooks/restart')[0]!.answer, { status: 200, body: { status: 'processed' } });

    const inUse = await runAp([
      'webhooks',
      'listen',
      '--port',
      '0',
      '--agent',
      `${server.url}/sales/mcp`,
      '--state-dir',
      stateDir(),
    ]);
    assert.equal(inUse.code, 1);
    assert.match(inUse.stderr, new RegExp(`in use by process ${listener.process.pid}`));

    // Killed outright, as by a crash: what it answered 200 was on disk already.
    const first = listener;
    assert.equal(await first.stop('SIGKILL'), null);
    await start();
    assert.match(listener.stderr[0]!, /4 events processed before/);
    reachRestarted();
    await edge.until(() => edge.to('/hooks/restart').length === 2);
    assert.deepEqual(edge.to('/hooks/restart')[1]!.answer, { status: 200, body: { status: 'duplicate' } });

    assert.equal(await listener.stop('SIGTERM'), 0);
    assert.match(listener.stderr.at(-1)!, /ap webhooks: stopped \(SIGTERM\)/);
    assert.deepEqual(listener.stdout, [], 'the restarted listener printed nothing');
    for (const task of tasks) assert.equal(count(first.stdout, `task_id=${task}`), 1, `${task} printed once`);
    assert.equal(sink.events.filter((e) => e.task_id === taskId).length, 1);
    await start();
  });

  it('accepts only the keys pinned by a publisher’s adagents.json signing_keys or a pin file', async () => {
    const jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as { keys: Json[] };
    const { d: _d, ...other } = {
      ...generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }),
      kid: jwks.keys[0]!.kid as string,
    };
    const agentUrl = `${server.url}/sales/mcp`;
    sink.adagents = {
      authorized_agents: [
        {
          url: agentUrl,
          authorized_for: 'all',
          authorization_type: 'property_ids',
          property_ids: ['x'],
          signing_keys: [other],
        },
      ],
    };
    const pinFile = join(dir, 'pins.json');
    await writeFile(pinFile, JSON.stringify(jwks));
    const [byAdagents, byFile] = await Promise.all([
      listen(join(dir, 'state-adagents'), ['--adagents', `${sink.url}/adagents.json`]),
      listen(join(dir, 'state-pins'), ['--pin-file', pinFile, '--json']),
    ]);
    try {
      assert.match(byAdagents.running.stderr[0]!, /pinned to 1 key/);
      const [delivery] = edge.to('/hooks/lost');
      const deliver = (url: string) =>
        fetch(`${url}/hooks/lost`, { method: 'POST', headers: delivery!.headers, body: delivery!.body });
      const refused = await deliver(byAdagents.url);
      assert.deepEqual(
        [refused.status, await refused.json()],
        [401, { error: 'webhook_signature_key_unknown' }],
        'the seller’s key is not the one the publisher attests',
      );
      const accepted = await deliver(byFile.url);
      assert.deepEqual([accepted.status, await accepted.json()], [200, { status: 'processed' }]);
      assert.deepEqual(
        JSON.parse(await byFile.running.line('stdout', /^\{/)),
        JSON.parse(delivery!.body),
        'a JSON line with --json',
      );
    } finally {
      await Promise.all([byAdagents.running.stop(), byFile.running.stop()]);
    }
  });
});
