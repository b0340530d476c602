import { integer, oneOf, optional, settings, text, type Loaded } from '../settings.ts';

/** The HTTP server: where it listens, what it accepts, how it logs, what it trusts in front of it. */
export const httpSettings = settings({
  port: {
    env: 'PORT',
    default: '3000',
    meaning: 'HTTP port',
    // Named as the --port flag, which may be where the value came from.
    parse: (value) => integer(0, 65535)(value, 'port'),
  },
  host: { env: 'HOST', default: '127.0.0.1', meaning: 'interface to listen on (0.0.0.0 for all)', parse: text },
  bodyLimitBytes: {
    env: 'BODY_LIMIT_BYTES',
    default: '1048576',
    meaning: 'largest request body accepted (413 beyond)',
    parse: integer(1, 1024 ** 3),
  },
  logLevel: {
    env: 'LOG_LEVEL',
    default: 'info',
    meaning: 'fatal, error, warn, info, debug, trace or silent',
    parse: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  },
  /** The address clients reach this server at, for the OpenAPI `servers` entry. */
  publicUrl: {
    env: 'PUBLIC_URL',
    default: '',
    meaning: 'external base URL, listed as the server in the OpenAPI document',
    parse: optional,
  },
  /** Trust X-Forwarded-* from a proxy in front: true, or the proxies' addresses/CIDRs. */
  trustProxy: {
    env: 'TRUST_PROXY',
    default: 'false',
    meaning: 'trust X-Forwarded-* headers: true, or comma-separated proxy addresses/CIDRs',
    parse: (value): boolean | string => (value === 'true' ? true : value === 'false' ? false : value),
  },
  /** Where rate-limit counters live when not in the database. */
  redisUrl: {
    env: 'REDIS_URL',
    default: '',
    meaning: 'keep rate-limit counters in this Redis instead of the database',
    parse: optional,
  },
});

export type HttpSettings = Loaded<typeof httpSettings>;
