/**
 * `@target-uri` and `@authority` (RFC 9421 §2.2.2, §2.2.3) in the profile's canonical form.
 *
 * The signer sees the URL its HTTP client is handed; the verifier rebuilds it from a Host header
 * and a request target that proxies and frameworks may have rewritten (case, default port, `%xx`
 * case, dot segments). Both sides canonicalize the same way so equivalent spellings of one URL
 * give one signature base, while anything that could route differently (consecutive slashes,
 * query order, `+`) is kept byte for byte. The rules and their order are those of
 * `test-vectors/request-signing/canonicalization.json`; a URL those rules call malformed is
 * refused rather than guessed at, because a guess is where signer and verifier would disagree.
 */
import { isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';

/** The URL cannot be canonicalized; the message says which rule it breaks. */
export class TargetUriError extends Error {
  override name = 'TargetUriError';
}

export interface CanonicalTarget {
  /** Lowercased scheme, `http` or `https`. */
  scheme: string;
  /** `host[:port]`: lowercased ASCII (A-label) host, default port stripped. The `@authority` value. */
  authority: string;
  /** Path after dot-segment removal and `%xx` normalization; `/` when empty. */
  path: string;
  /** Query without the `?`, byte for byte; `undefined` when the URL has no `?` at all. */
  query: string | undefined;
  /** The `@target-uri` value: scheme, authority, path and query, without userinfo or fragment. */
  targetUri: string;
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443' };

/** RFC 3986 Appendix B, restricted to URLs with an authority (`scheme://…`). */
const URL_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#.*)?$/s;

/** Percent-encoded octets whose character is unreserved (RFC 3986 §2.3) are decoded (§6.2.2.2). */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Canonicalizes an absolute http(s) URL, or throws `TargetUriError`. */
export function canonicalizeTargetUri(url: string): CanonicalTarget {
  // Controls, space and DEL: everything that is neither printable ASCII nor non-ASCII (IDN hosts).
  if (/[^\x21-\x7e\u0080-\u{10ffff}]/u.test(url))
    throw new TargetUriError('the URL contains whitespace or control characters');
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new TargetUriError('the URL is not absolute with an authority (scheme://host/…)');
  const [, rawScheme = '', rawAuthority = '', rawPath = '', rawQuery] = parts;

  // Step 1: lowercase the scheme. Only http(s) have the default ports step 4 needs.
  const scheme = rawScheme.toLowerCase();
  const defaultPort = DEFAULT_PORTS[scheme];
  if (defaultPort === undefined) throw new TargetUriError(`the scheme "${scheme}" is not http or https`);

  // Steps 2–4: host (lowercase, IDNA A-label, bracketed IPv6), userinfo stripped, default port.
  const authority = authorityOf(rawAuthority, defaultPort);

  // Steps 5–6: remove_dot_segments, then normalize percent-encoding; the empty path becomes `/`.
  if (/[^\x21-\x7e]/.test(rawPath + (rawQuery ?? ''))) {
    throw new TargetUriError('the path or query has characters that must be percent-encoded on the wire');
  }
  if (/%(?![0-9A-Fa-f]{2})/.test(rawPath))
    throw new TargetUriError('the path has a "%" that is not a percent-encoding');
  const path = normalizePercentEncoding(removeDotSegments(rawPath)) || '/';

  // Step 7: the query stays byte for byte; a bare `?` stays. Step 8: the fragment is dropped.
  const query = rawQuery;
  const targetUri = `${scheme}://${authority}${path}${query === undefined ? '' : `?${query}`}`;
  return { scheme, authority, path, query, targetUri };
}

/** The `@authority` value of an absolute http(s) URL, or throws `TargetUriError`. */
export function canonicalAuthority(url: string): string {
  return canonicalizeTargetUri(url).authority;
}

function authorityOf(rawAuthority: string, defaultPort: string): string {
  // Userinfo ends at the last "@"; it is never part of the signed authority.
  const hostPort = rawAuthority.slice(rawAuthority.lastIndexOf('@') + 1);
  let host: string;
  let port: string;
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close === -1) throw new TargetUriError('the IPv6 literal has no closing bracket');
    const literal = hostPort.slice(1, close);
    if (literal.includes('%')) throw new TargetUriError('an IPv6 zone identifier has no meaning in a signed URL');
    if (!isIPv6(literal)) throw new TargetUriError(`"${literal}" is not an IPv6 address`);
    host = `[${literal.toLowerCase()}]`;
    const rest = hostPort.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) throw new TargetUriError('unexpected characters after the IPv6 literal');
    port = rest.slice(1);
  } else {
    const colon = hostPort.indexOf(':');
    const rawHost = colon === -1 ? hostPort : hostPort.slice(0, colon);
    port = colon === -1 ? '' : hostPort.slice(colon + 1);
    if (rawHost === '') throw new TargetUriError('the authority has no host');
    // UTS #46 non-transitional ToASCII, as WHATWG URL parsing does; it also lowercases.
    host = domainToASCII(rawHost);
    if (host === '') throw new TargetUriError(`"${rawHost}" is not a valid host name`);
  }
  if (!/^[0-9]*$/.test(port)) throw new TargetUriError('the port is not a number (an IPv6 address must be bracketed)');
  if (port !== '') {
    const value = Number(port);
    if (value > 65535) throw new TargetUriError('the port is out of range');
    port = String(value);
  }
  return port === '' || port === defaultPort ? host : `${host}:${port}`;
}

/** RFC 3986 §5.2.4, on the raw path: `//` is an empty segment and is kept, not collapsed. */
export function removeDotSegments(path: string): string {
  let input = path;
  let output = '';
  const dropLastSegment = () => {
    output = output.slice(0, Math.max(output.lastIndexOf('/'), 0));
  };
  while (input !== '') {
    if (input.startsWith('../')) input = input.slice(3);
    else if (input.startsWith('./')) input = input.slice(2);
    else if (input.startsWith('/./')) input = input.slice(2);
    else if (input === '/.') input = '/';
    else if (input.startsWith('/../')) {
      input = input.slice(3);
      dropLastSegment();
    } else if (input === '/..') {
      input = '/';
      dropLastSegment();
    } else if (input === '.' || input === '..') input = '';
    else {
      const next = input.indexOf('/', input.startsWith('/') ? 1 : 0);
      const segment = next === -1 ? input : input.slice(0, next);
      output += segment;
      input = input.slice(segment.length);
    }
  }
  return output;
}

/** Uppercases `%xx` hex digits and decodes the ones that encode unreserved characters. */
function normalizePercentEncoding(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}
