import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import closeWithGrace from 'close-with-grace';
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  adagentsPins,
  createWebhookReceiver,
  FileSeenKeys,
  pinsFromJson,
  receiverListener,
  sellerKeys,
  type WebhookEvent,
  type WebhookRejection,
} from '../../client/webhooks/index.ts';
import { systemClock } from '../../clock.ts';
import { parseAllowList, type AllowList } from '../../net/allow-list.ts';
import { SafeFetch } from '../../net/safe-fetch.ts';
import { webhookSignatureErrors } from '../../signing/index.ts';

interface Flags {
  port: number;
  host: string;
  publicUrl?: string;
  brandJson?: string;
  agent?: string;
  adagents?: string;
  pinFile?: string;
  stateDir: string;
  forward?: string;
  allow?: AllowList;
  json?: boolean;
}

/** How long a forward may take: less than a seller waits for our answer (ours: 10 s), so a slow target fails here, not there. */
const FORWARD_TIMEOUT_MS = 5_000;

const reasons = `Answers (the JSON body's "status" or "error"; a seller retries 5xx, not 4xx):
  200  processed, or duplicate (an idempotency_key already processed: not printed again)
  401  a signature that fails, with WWW-Authenticate: Signature error="<code>":
       ${webhookSignatureErrors.join('\n       ')}
  400  invalid_json, invalid_payload (no idempotency_key)
  500  processing_failed (--forward failed, or the state could not be written); the key is given back
  503  in_progress (another delivery of the same key is being processed), keys_unavailable (the
       seller's brand.json or JWKS could not be read)

Each processed idempotency_key is kept in <state-dir>/seen-keys.jsonl (fsync'd before answering
200, kept 30 days), so a retry is answered 200 and not processed again, across restarts too.`;

/** `ap webhooks listen`: a webhook receiver to run, verifying, deduplicating, printing and forwarding what sellers send. */
export function webhooksCommand(): Command {
  const webhooks = new Command('webhooks').description('Receive the signed webhooks agents send');
  webhooks.addCommand(
    new Command('listen')
      .description(
        "Receive webhooks: verify each RFC 9421 signature against the seller's keys, process each idempotency_key once, print each event (and forward it)",
      )
      .option('--port <port>', 'port to listen on (0 picks a free one)', port, 3100)
      .option('--host <host>', 'interface to listen on', '127.0.0.1')
      .option(
        '--public-url <url>',
        'the URL senders address, as they sign it (behind a tunnel or proxy); default http://<host>:<port>',
        httpUrl,
      )
      .option(
        '--brand-json <url>',
        "the seller operator's brand.json, whose agents[].jwks_uri give the keys; default the agent's origin's /.well-known/brand.json",
        httpUrl,
      )
      .option('--agent <url>', 'the agent whose webhooks these are: only its brand.json entry is trusted', httpUrl)
      .addOption(
        new Option(
          '--adagents <url>',
          "a publisher's adagents.json: only the signing_keys it attests for --agent are accepted",
        )
          .argParser(httpUrl)
          .conflicts('pinFile'),
      )
      .option('--pin-file <file>', 'only these keys are accepted (a JWKS or an array of JWKs), whatever the JWKS says')
      .option('--state-dir <dir>', 'where processed idempotency keys are kept', defaultStateDir())
      .option(
        '--forward <url>',
        'POST each verified event, once, as JSON to this URL; a failure answers 500 so the seller retries',
        httpUrl,
      )
      .addOption(
        new Option(
          '--allow <entries>',
          "host:port entries the seller's documents may be fetched from on private addresses, e.g. localhost:3000 (development only)",
        )
          .env('AP_FETCH_ALLOW')
          .argParser(allowList),
      )
      .option('--json', 'print each event as a JSON line')
      .addHelpText('after', `\n${reasons}`)
      .action(async (flags: Flags, command: Command) => {
        if (!flags.brandJson && !flags.agent) command.error('error: name the seller with --brand-json or --agent');
        if (flags.adagents && !flags.agent)
          command.error('error: --adagents needs --agent: the entry whose signing_keys to trust');
        await listen(flags);
      }),
  );
  return webhooks;
}

async function listen(flags: Flags): Promise<void> {
  const clock = systemClock;
  const fetcher = new SafeFetch({ ...(flags.allow ? { allow: flags.allow } : {}) });
  const forwarder = flags.forward
    ? new SafeFetch({
        allow: parseAllowList(endpointOf(flags.forward)),
        maxRedirects: 0,
        timeoutMs: FORWARD_TIMEOUT_MS,
      })
    : undefined;
  const closeFetchers = () => Promise.all([fetcher.close(), forwarder?.close()]);
  let seen: FileSeenKeys;
  let pinnedKeys;
  try {
    if (flags.pinFile) pinnedKeys = pinsFromJson(await readFile(flags.pinFile, 'utf8'), clock, flags.pinFile);
    else if (flags.adagents) pinnedKeys = await adagentsPins(fetcher, flags.adagents, flags.agent!, clock);
    seen = await FileSeenKeys.open({ dir: flags.stateDir, clock });
  } catch (err) {
    await closeFetchers();
    throw err;
  }
  const brandJsonUrl = flags.brandJson ?? new URL('/.well-known/brand.json', flags.agent).href;

  const receiver = createWebhookReceiver({
    resolveKey: sellerKeys({
      fetcher,
      clock,
      brandJsonUrl,
      ...(flags.agent ? { agentUrl: flags.agent } : {}),
      ...(pinnedKeys ? { pinnedKeys } : {}),
    }),
    clock,
    seen,
    async onEvent(event) {
      if (forwarder) await forward(forwarder, flags.forward!, event);
      console.log(flags.json ? JSON.stringify(event) : eventLine(event, clock.now()));
    },
    onRejected: (rejection) => console.error(rejectionLine(rejection, clock.now())),
  });

  // The URL senders sign is known once the port is (--port 0).
  let publicUrl = flags.publicUrl ?? '';
  const server = http.createServer((req, res) => receiverListener(receiver, publicUrl)(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(flags.port, flags.host, resolve);
  }).catch(async (err: unknown) => {
    await Promise.all([seen.close(), closeFetchers()]);
    throw err;
  });
  const address = server.address() as AddressInfo;
  const listening = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  publicUrl ||= listening;
  const pins = pinnedKeys ? `, pinned to ${pinnedKeys.length === 1 ? '1 key' : `${pinnedKeys.length} keys`}` : '';
  console.error(
    `ap webhooks: listening at ${listening} (senders address ${publicUrl}; keys from ${brandJsonUrl}${pins}; ${seen.size} events processed before, kept in ${flags.stateDir}${flags.forward ? `; forwarding to ${flags.forward}` : ''})`,
  );

  // Deliveries under way finish (their keys committed) before the state is closed; the seller retries any cut short.
  closeWithGrace({ delay: 10_000, logger: false }, async ({ signal, err }) => {
    if (err) console.error(`ap webhooks: stopping after an unexpected error: ${err.message}`);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.all([seen.close(), closeFetchers()]);
    console.error(`ap webhooks: stopped${signal ? ` (${signal})` : ''}`);
  });
}

async function forward(forwarder: SafeFetch, url: string, event: WebhookEvent): Promise<void> {
  let status: number;
  try {
    status = (
      await forwarder.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': event.idempotency_key },
        body: JSON.stringify(event),
        redirect: 'error',
      })
    ).status;
  } catch (err) {
    throw new Error(`forwarding to ${url} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (status < 200 || status > 299) throw new Error(`forwarding to ${url} failed: HTTP ${status}`);
}

/** `time  task_type/status  task_id=…  idempotency_key=…`; an event of another kind (a delivery report) by its notification_type. */
function eventLine(event: WebhookEvent, receivedAt: Date): string {
  const kind = text(event.task_type) ?? text(event['notification_type']) ?? 'event';
  const status = text(event.status);
  return `${receivedAt.toISOString()}  ${kind}${status ? `/${status}` : ''}  task_id=${text(event.task_id) ?? '-'}  idempotency_key=${event.idempotency_key}`;
}

function rejectionLine(rejection: WebhookRejection, at: Date): string {
  const path = URL.canParse(rejection.request.url) ? new URL(rejection.request.url).pathname : rejection.request.url;
  const key = rejection.idempotencyKey === undefined ? '' : `  idempotency_key=${rejection.idempotencyKey}`;
  return `${at.toISOString()}  rejected ${rejection.status} ${rejection.error}  ${rejection.request.method} ${path}${key}  (${rejection.message})`;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function defaultStateDir(): string {
  return join(process.env['XDG_STATE_HOME'] || join(homedir(), '.local', 'state'), 'ap', 'webhooks');
}

/** The forward target as an allow-list entry: the operator named it, so it may be on loopback. */
function endpointOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || (parsed.protocol === 'https:' ? 443 : 80)}`;
}

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('a port from 0 to 65535');
  return n;
}

function httpUrl(value: string): string {
  if (!URL.canParse(value) || !['http:', 'https:'].includes(new URL(value).protocol))
    throw new InvalidArgumentError('an http or https URL');
  return value;
}

function allowList(value: string): AllowList {
  try {
    return parseAllowList(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}
