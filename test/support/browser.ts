import { chromium, type Browser } from 'playwright-core';

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
