import type { TxtResolver } from '../../context.ts';
import { FetchError } from '../../net/fetch-error.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';

/** Where a domain shows a nonce: a TXT record, or a file on its own web server. */
export function dnsName(domain: string): string {
  return `_ap-owner.${domain}`;
}

export function httpUrl(domain: string): string {
  return `https://${domain}/.well-known/ap-ownership.txt`;
}

/** Why the domain did not show the nonce, or undefined when it did. */
export type CheckOutcome = string | undefined;

export async function checkDns(resolveTxt: TxtResolver, domain: string, nonce: string): Promise<CheckOutcome> {
  const name = dnsName(domain);
  let records: string[][];
  try {
    records = await resolveTxt(name);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOTFOUND' || code === 'ENODATA'
      ? `${name} has no TXT record`
      : `the TXT lookup of ${name} failed (${code ?? 'error'})`;
  }
  // A TXT record may arrive in several strings; they form one value.
  return records.some((chunks) => chunks.join('').trim() === nonce)
    ? undefined
    : `no TXT record at ${name} holds the nonce`;
}

export async function checkHttp(fetcher: SafeFetch, domain: string, nonce: string): Promise<CheckOutcome> {
  const url = httpUrl(domain);
  try {
    // No redirects: a redirect elsewhere would prove control of somewhere else.
    const res = await fetcher.fetch(url, { redirect: 'error', maxBytes: 16 * 1024, headers: { accept: 'text/plain' } });
    if (res.status !== 200) return `${url} answered HTTP ${res.status}`;
    // One nonce per line, so organizations sharing a domain can each prove it.
    return res
      .text()
      .split(/\r?\n/)
      .some((line) => line.trim() === nonce)
      ? undefined
      : `${url} does not contain the nonce`;
  } catch (err) {
    if (err instanceof FetchError) return `${url} could not be fetched: ${err.message}`;
    throw err;
  }
}
