import { isIP } from 'node:net';
import { ApError } from './errors.ts';
import { hasReservedHyphens, idnaToAscii, reservedHyphens, type DomainErrorCode } from './idna.ts';
import { RecentAnswers } from './recent-answers.ts';

export { toUnicodeDomain } from './idna.ts';
export { labelScripts } from './scripts.ts';

/**
 * The one domain normalizer, used by every endpoint that takes a domain: the same input always
 * becomes the same key, so lookups, saves and crawls agree on what a domain is.
 *
 * Accepts what people paste (`HTTPS://Example.COM.`, `example.com/`) and refuses what is not a
 * bare host name: paths, ports, credentials, queries, IP literals and malformed labels.
 * Internationalized names go through IDNA 2008 (UTS #46, non-transitional, `src/protocol/idna.ts`)
 * and are stored in their ASCII (punycode) form; names refused there answer
 * `domain_disallowed_characters`, `domain_mixed_script` or `domain_invalid_punycode`, every other
 * refusal `invalid_domain`. Plain ASCII names without `xn--` labels skip IDNA processing.
 */
/** Where the domain came from, so the error names the right part of the request. */
export interface DomainSource {
  field?: string;
  in?: 'querystring' | 'body' | 'params';
}

export function normalizeDomain(
  input: string,
  { field = 'domain', in: where = 'querystring' }: DomainSource = {},
): string {
  const reject = (reason: string, code: DomainErrorCode = 'invalid_domain'): never => {
    throw new ApError(code, `Invalid ${field} "${truncate(input)}": ${reason}.`, {
      details: [{ in: where, field, message: reason }],
    });
  };
  let host = input.trim();
  const plain = !/\P{ASCII}/u.test(host);
  // Only ASCII letters: UTS #46 maps the others (Σ becomes σ, where lowercasing could give ς).
  host = plain ? host.toLowerCase() : host.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
  host = host.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  if (host.endsWith('/')) host = host.slice(0, -1); // a bare root path is what people paste
  if (host === '') reject('it is empty');
  if (/[/?#]/.test(host)) reject('a domain has no path, query or fragment');
  if (host.includes('@')) reject('a domain has no credentials');
  if (host.startsWith('[') || isIP(host) !== 0) reject('IP addresses are not domains');
  if (/:\d*$/.test(host)) reject('a domain has no port');
  // The trailing dot of a fully qualified name, also the ideographic and full-width dots UTS #46 reads as dots.
  if (host.endsWith('.') || (!plain && /[\u3002\uFF0E\uFF61]$/.test(host))) host = host.slice(0, -1);

  let ascii = host;
  if (!plain || host.startsWith('xn--') || host.includes('.xn--')) {
    const result = idnaToAscii(host);
    if (result.problem) return reject(result.problem.reason, result.problem.code);
    ascii = result.ascii;
    if (isIP(ascii) !== 0) reject('IP addresses are not domains'); // full-width digits map to ASCII ones
  }
  if (ascii.length > 253) reject('it is longer than 253 characters');
  const labels = ascii.split('.');
  if (labels.length < 2) reject('it needs at least two labels, like example.com');
  for (const label of labels) {
    if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label))
      reject(`label "${truncate(label)}" is not a valid host name label`);
    if (hasReservedHyphens(label) && !label.startsWith('xn--')) reject(reservedHyphens(label).reason);
  }
  // The URL standard's "ends in a number" rule: a host whose last label is decimal or 0x-hex is
  // parsed as an IPv4 address (0x7f.0.0.0x1 is 127.0.0.1), so it is never a domain.
  if (/^(\d+|0x[0-9a-f]*)$/.test(labels.at(-1)!))
    reject('the top-level label cannot be a number (URLs read such a host as an IPv4 address)');
  return ascii;
}

const recentDomains = new RecentAnswers<string>(4096);

/**
 * `normalizeDomain` for domains taken from requests: the normal forms of recently seen inputs are
 * remembered (a refusal is not, so each names its own field).
 */
/** `input` normalized as a domain, or undefined when it is not one (a name searched, an id). */
export function domainOrUndefined(input: string): string | undefined {
  try {
    return normalizeDomain(input);
  } catch (err) {
    if (err instanceof ApError) return undefined;
    throw err;
  }
}

export function normalizeRequestDomain(input: string, source?: DomainSource): string {
  return recentDomains.get(input) ?? recentDomains.set(input, normalizeDomain(input, source));
}

function truncate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
