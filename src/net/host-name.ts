/**
 * A host in the one form every check compares: as the WHATWG URL parser writes it (lower case,
 * punycode, IPv4 in dotted decimal, IPv6 compressed) but without IPv6 brackets, which is also the
 * form undici hands to the connector. Undefined when it is not a bare host.
 */
export function canonicalHost(raw: string): string | undefined {
  // Anything that would make the URL parser read credentials, a path or a port is not a host.
  if (raw === '' || /[/?#@\\\s]/.test(raw)) return undefined;
  const bracketed = raw.includes(':') && !raw.startsWith('[') ? `[${raw}]` : raw;
  if (bracketed.startsWith('[') && !bracketed.endsWith(']')) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${bracketed}/`);
  } catch {
    return undefined;
  }
  if (url.port !== '' || url.hostname === '') return undefined;
  return unbracket(url.hostname);
}

export function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
