import { chromium, type Browser } from 'playwright-core';
import type { TestEngine } from './engines.ts';
import { startTestServer, type TestServer, type TestServerOptions } from './server.ts';

/**
 * Debian's Chromium, headless, with everything that would reach beyond this machine switched off.
 * `scripts/test-services.sh` installs it when missing.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A test server and the browser, started together. If one fails, the other is closed before the
 * error is thrown: left running, it would keep the test process alive until the runner's timeout
 * (as it did when Chromium was missing).
 */
export async function startServerWithBrowser(
  engine: TestEngine,
  options?: TestServerOptions,
): Promise<{ server: TestServer; browser: Browser }> {
  const [started, launched] = await Promise.allSettled([startTestServer(engine, options), launchBrowser()]);
  if (started.status === 'fulfilled' && launched.status === 'fulfilled')
    return { server: started.value, browser: launched.value };
  if (started.status === 'fulfilled') await started.value.close();
  if (launched.status === 'fulfilled') await launched.value.close();
  throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
}
