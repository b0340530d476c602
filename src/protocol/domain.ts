import { isIP } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';
import { ApError } from './errors.ts';

/**
 * The one domain normalizer, used by every endpoint that takes a domain: the same input always
 * becomes the same key, so lookups, saves and crawls agree on what a domain is.
 *
 * Accepts what people paste (`HTTPS://Example.COM.`, `example.com/`) and refuses what is not a
 * bare host name: paths, ports, credentials, queries, IP literals and malformed labels. Unicode
 * names are stored in their ASCII (punycode) form.
 */
/** Where the domain came from, so the error names the right part of the request. */
export interface DomainSource {
  field?: string;
  in?: 'query' | 'body';
}

export function normalizeDomain(input: string, { field = 'domain', in: where = 'query' }: DomainSource = {}): string {
  const reject = (reason: string): never => {
    throw new ApError('invalid_domain', `Invalid ${field} "${truncate(input)}": ${reason}.`, {
      details: [{ in: where, field, message: reason }],
    });
  };
  let host = input.trim().toLowerCase();
  host = host.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  if (host.endsWith('/')) host = host.slice(0, -1); // a bare root path is what people paste
  if (host === '') reject('it is empty');
  if (/[/?#]/.test(host)) reject('a domain has no path, query or fragment');
  if (host.includes('@')) reject('a domain has no credentials');
  if (host.startsWith('[') || isIP(host) !== 0) reject('IP addresses are not domains');
  if (/:\d*$/.test(host)) reject('a domain has no port');
  if (host.endsWith('.')) host = host.slice(0, -1);

  const ascii = /^[\x21-\x7e]*$/.test(host) ? host : domainToASCII(host);
  if (ascii === '') reject('it is not a valid internationalized name');
  if (ascii.length > 253) reject('it is longer than 253 characters');
  const labels = ascii.split('.');
  if (labels.length < 2) reject('it needs at least two labels, like example.com');
  for (const label of labels) {
    if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label)) reject(`label "${truncate(label)}" is not a valid host name label`);
    // Undecodable punycode comes back unchanged from the decoder.
    if (label.startsWith('xn--') && domainToUnicode(label).startsWith('xn--')) reject(`label "${label}" is not valid punycode`);
  }
  if (/^\d+$/.test(labels.at(-1)!)) reject('the top-level label cannot be numeric');
  return ascii;
}

function truncate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
