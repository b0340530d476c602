/**
 * Domains of advertising and web infrastructure that turn up in publisher lists (copied from ad
 * server reports, referrer logs or tag audits) but are never publishers: nobody sells inventory
 * "on" an ad server, a tracker or a CDN, so a list naming one has picked up plumbing. Deliberately
 * short: only domains that serve nothing but infrastructure (a company's own site, such as
 * criteo.com, is not here; its serving domain is). A subdomain is blocked with its domain.
 */
export interface Infrastructure {
  domain_type:
    'ad_server' | 'ad_exchange' | 'dsp' | 'verification' | 'measurement' | 'tag_manager' | 'analytics' | 'cdn';
  blocked_reason: string;
}

const groups: Array<[Infrastructure, string[]]> = [
  [
    { domain_type: 'ad_server', blocked_reason: 'ad serving and ad-tag delivery, not a publisher' },
    // Google's ad servers, their creative CDN and tag library; Amazon's and Equativ's ad serving.
    [
      'doubleclick.net',
      'googlesyndication.com',
      'googleadservices.com',
      '2mdn.net',
      'googletagservices.com',
      'amazon-adsystem.com',
      'smartadserver.com',
    ],
  ],
  [
    { domain_type: 'ad_exchange', blocked_reason: 'an exchange’s bidding and serving endpoints, not a publisher' },
    // Xandr, Magnite, OpenX, Index Exchange, Criteo's serving domain.
    ['adnxs.com', 'rubiconproject.com', 'openx.net', 'casalemedia.com', 'criteo.net'],
  ],
  [
    { domain_type: 'dsp', blocked_reason: 'a buying platform’s serving and pixel domain, not a publisher' },
    ['adsrvr.org'],
  ],
  [
    { domain_type: 'verification', blocked_reason: 'ad verification tags, not a publisher' },
    // DoubleVerify, Integral Ad Science, Oracle Moat.
    ['doubleverify.com', 'adsafeprotected.com', 'moatads.com'],
  ],
  [
    { domain_type: 'measurement', blocked_reason: 'audience measurement beacons, not a publisher' },
    ['scorecardresearch.com'],
  ],
  [
    { domain_type: 'tag_manager', blocked_reason: 'a tag manager’s script host, not a publisher' },
    ['googletagmanager.com'],
  ],
  [
    { domain_type: 'analytics', blocked_reason: 'an analytics collection endpoint, not a publisher' },
    ['google-analytics.com'],
  ],
  [
    { domain_type: 'cdn', blocked_reason: 'a content delivery network’s shared hostnames, not a publisher' },
    // Shared CDN hostnames (a publisher's own site is served under its own domain).
    ['cloudfront.net', 'akamaihd.net', 'akamaized.net', 'fastly.net'],
  ],
];

const byDomain = new Map(groups.flatMap(([kind, domains]) => domains.map((d) => [d, kind] as const)));

/** What infrastructure the (normalized) domain belongs to, if it is listed, itself or as a parent domain. */
export function infrastructureOf(domain: string): Infrastructure | undefined {
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const kind = byDomain.get(labels.slice(i).join('.'));
    if (kind) return kind;
  }
  return undefined;
}
