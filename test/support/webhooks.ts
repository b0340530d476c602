import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sellerKeys } from '../../src/client/webhooks/keys.ts';
import {
  createWebhookReceiver,
  receiverListener,
  type ReceiverRequest,
  type WebhookEvent,
} from '../../src/client/webhooks/receiver.ts';
import type { Clock } from '../../src/clock.ts';
import { systemClock } from '../../src/clock.ts';
import { parseAllowList } from '../../src/net/allow-list.ts';
import { SafeFetch } from '../../src/net/safe-fetch.ts';
import { Conditions } from './events.ts';

/**
 * A buyer's webhook endpoint on loopback, built on the receiver library, resolving the seller's
 * keys from its brand.json. `answerWith` makes the next deliveries fail with a status (as a flaky
 * endpoint would) before the receiver sees them, only those to paths under `answerOnly` when set
 * (so a late delivery of another test's task cannot use them up); `requests` keeps what arrived, as sent; `until`
 * waits for what arrives.
 */
export class TestReceiver {
  readonly events: WebhookEvent[] = [];
  readonly requests: ReceiverRequest[] = [];
  readonly statuses: number[] = [];
  answerWith: number[] = [];
  answerOnly: string | undefined;
  /**
   * While set, each delivery is read whole and then held until this settles before the receiver
   * handles it: the sender waits on an answer meanwhile (a slow endpoint, or one whose sender dies
   * mid-delivery). `held` counts the deliveries that came in while it was set.
   */
  hold: Promise<unknown> | undefined;
  held = 0;
  /** Also hands each processed event here (a client waiting on webhooks). */
  onEvent: ((event: WebhookEvent) => void) | undefined;
  url = '';
  private server: http.Server | undefined;
  private receiver: ReturnType<typeof createWebhookReceiver> | undefined;
  private readonly arrivals = new Conditions();

  async listen(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const forced =
        this.answerOnly === undefined || req.url!.startsWith(this.answerOnly) ? this.answerWith.shift() : undefined;
      if (forced !== undefined) {
        req.resume();
        res.writeHead(forced).end();
        this.statuses.push(forced);
        this.arrivals.changed();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.requests.push({
          method: req.method!,
          url: new URL(req.url!, this.url).href,
          headers: { ...req.headers },
          body: Buffer.concat(chunks).toString('utf8'),
        });
        this.arrivals.changed();
      });
      res.on('finish', () => {
        this.statuses.push(res.statusCode);
        this.arrivals.changed();
      });
      // Before `trust` names the seller, the endpoint is not ready: the sender retries, as with a real one.
      if (!this.receiver) res.writeHead(503).end();
      else if (this.hold) this.handleHeld(req, res, this.hold);
      else receiverListener(this.receiver, this.url)(req, res);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /**
   * Trusts the seller at `sellerBase` (its brand.json and JWKS on loopback). A function gives the
   * seller's current address, for tests that replace one instance with another on a new port.
   */
  trust(sellerBase: string | (() => string), clock: Clock = systemClock): void {
    const base = typeof sellerBase === 'string' ? () => sellerBase : sellerBase;
    this.receiver = createWebhookReceiver({
      resolveKey: (kid) => {
        const fetcher = new SafeFetch({ allow: parseAllowList(new URL(base()).host) });
        return sellerKeys({ fetcher, clock, brandJsonUrl: `${base()}/.well-known/brand.json` })(kid).finally(() =>
          fetcher.close(),
        );
      },
      onEvent: (event) => {
        this.events.push(event);
        this.onEvent?.(event);
        this.arrivals.changed();
      },
      clock,
    });
  }

  /** Reads the delivery, counts it held, and hands it to the receiver once `hold` settles, answering if its sender still listens. */
  private handleHeld(req: http.IncomingMessage, res: http.ServerResponse, hold: Promise<unknown>): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.held++;
      this.arrivals.changed();
      void hold.then(async () => {
        const out = await this.receiver!.handle({
          method: req.method!,
          url: new URL(req.url!, this.url).href,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        if (!res.destroyed) res.writeHead(out.status, out.headers).end(out.body);
      });
    });
  }

  /** Resolves once `check` holds of what has arrived (`events`, `requests`, `statuses`), checked at each arrival. */
  until(check: () => boolean): Promise<void> {
    return this.arrivals.until(check);
  }

  /** The receiver alone, for requests a test alters by hand. */
  handle(request: ReceiverRequest) {
    return this.receiver!.handle(request);
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
