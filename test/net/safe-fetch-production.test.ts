import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { parseAllowList } from '../../src/net/allow-list.ts';
import { FetchError } from '../../src/net/fetch-error.ts';
import { systemResolver, type Resolver } from '../../src/net/resolver.ts';
import { SafeFetch } from '../../src/net/safe-fetch.ts';
import { hostileNames, hostileUrls } from '../support/hostile-targets.ts';
import { recordConnectionAttempts, startLocalServer, type ConnectionLog, type LocalServer } from './local-servers.ts';

// Test names answer from the shared table; everything else (localhost) goes to the system resolver.
const resolver: Resolver = async (hostname) => hostileNames[hostname] ?? systemResolver(hostname);

/**
 * The production policy: nothing on the allow list. Each target is refused with forbidden_address
 * before any socket tries to connect; traps listening on loopback see no request.
 */
describe('SafeFetch under the production policy', () => {
  let trap: LocalServer;
  let trap6: LocalServer | undefined;
  let redirector: LocalServer;
  let direct: SafeFetch;
  let viaRedirect: SafeFetch;
  let connections: ConnectionLog;

  before(async () => {
    trap = await startLocalServer((_req, res) => res.end('trap'));
    trap6 = await startLocalServer((_req, res) => res.end('trap'), { host: '::1' }).catch(() => undefined);
    redirector = await startLocalServer((req, res) => {
      const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '/';
      res.writeHead(302, { location: to }).end();
    });
    direct = new SafeFetch({ resolver, timeoutMs: 2000 });
    // Only the redirector is reachable, by a name, so no loopback address or port is on the list.
    viaRedirect = new SafeFetch({
      resolver,
      allow: parseAllowList(`origin.test=127.0.0.1:${redirector.port}`),
      timeoutMs: 2000,
    });
  });
  after(async () => {
    await Promise.all([direct.close(), viaRedirect.close()]);
    assert.equal(trap.requests.length, 0);
    assert.equal(trap6?.requests.length ?? 0, 0);
    await Promise.all([trap.close(), trap6?.close(), redirector.close()]);
  });
  beforeEach(() => {
    connections = recordConnectionAttempts();
  });
  afterEach(() => connections.stop());

  const targets = (): Array<[string, string]> => {
    const ports = { v4: trap.port, ...(trap6 ? { v6: trap6.port } : {}) };
    return [...hostileUrls('http', ports), ...hostileUrls('https', ports)];
  };

  function refusedAs(range: string) {
    return (error: unknown) => {
      assert.ok(error instanceof FetchError, `expected a FetchError, got ${String(error)}`);
      assert.equal(error.reason, 'forbidden_address', error.message);
      assert.equal(error.range, range);
      assert.ok(error.host && error.message.includes(error.host), error.message);
      return true;
    };
  }

  it('refuses each private, loopback, link-local or reserved target without connecting', async () => {
    for (const [url, range] of targets()) {
      await assert.rejects(direct.fetch(url), refusedAs(range), url);
    }
    assert.deepEqual(connections.attempts, []);
  });

  it('refuses each of them as a redirect target, connecting only to the redirector', async () => {
    for (const [url, range] of targets()) {
      await assert.rejects(
        viaRedirect.fetch(`http://origin.test/?to=${encodeURIComponent(url)}`),
        refusedAs(range),
        url,
      );
    }
    const redirectorAddress = `127.0.0.1 ${redirector.port}`;
    // The log does see the connections undici opens.
    assert.ok(connections.attempts.includes(redirectorAddress));
    assert.deepEqual(
      connections.attempts.filter((attempt) => attempt !== redirectorAddress),
      [],
    );
  });

  it('refuses the same targets with the default resolver and no options at all', async () => {
    const defaults = new SafeFetch({ timeoutMs: 2000 });
    try {
      await assert.rejects(defaults.fetch(`http://localhost:${trap.port}/`), refusedAs('loopback'));
      await assert.rejects(defaults.fetch('http://169.254.169.254/latest/meta-data'), refusedAs('linkLocal'));
    } finally {
      await defaults.close();
    }
    assert.deepEqual(connections.attempts, []);
  });
});
