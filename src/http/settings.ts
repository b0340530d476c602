import { integer, nonEmpty, oneOf, reader, type Env, type Setting } from '../settings.ts';

/** The HTTP server: where it listens, what it accepts, how it logs, what it trusts in front of it. */
export interface HttpSettings {
  port: number;
  host: string;
  bodyLimitBytes: number;
  logLevel: string;
  /** The address clients reach this server at, for the OpenAPI `servers` entry. */
  publicUrl: string | undefined;
  /** Trust X-Forwarded-* from a proxy in front: true, or the proxies' addresses/CIDRs. */
  trustProxy: boolean | string;
  /** Where rate-limit counters live when not in the database. */
  redisUrl: string | undefined;
}

export const httpSettings = {
  PORT: { default: '3000', meaning: 'HTTP port' },
  HOST: { default: '127.0.0.1', meaning: 'interface to listen on (0.0.0.0 for all)' },
  BODY_LIMIT_BYTES: { default: '1048576', meaning: 'largest request body accepted (413 beyond)' },
  LOG_LEVEL: { default: 'info', meaning: 'fatal, error, warn, info, debug, trace or silent' },
  PUBLIC_URL: { default: '', meaning: 'external base URL, listed as the server in the OpenAPI document' },
  TRUST_PROXY: {
    default: 'false',
    meaning: 'trust X-Forwarded-* headers: true, or comma-separated proxy addresses/CIDRs',
  },
  REDIS_URL: { default: '', meaning: 'keep rate-limit counters in this Redis instead of the database' },
} as const satisfies Record<string, Setting>;

export function loadHttpSettings(flags: { port?: string; host?: string }, env: Env): HttpSettings {
  const get = reader(httpSettings, env);
  return {
    port: integer('port', get('PORT', flags.port), 0, 65535),
    host: get('HOST', flags.host),
    bodyLimitBytes: integer('BODY_LIMIT_BYTES', get('BODY_LIMIT_BYTES'), 1, 1024 ** 3),
    logLevel: oneOf('LOG_LEVEL', get('LOG_LEVEL'), ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    publicUrl: nonEmpty(get('PUBLIC_URL')),
    trustProxy: trustProxy(get('TRUST_PROXY')),
    redisUrl: nonEmpty(get('REDIS_URL')),
  };
}

function trustProxy(value: string): boolean | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}
