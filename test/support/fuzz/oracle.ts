import { maxPathParamLength } from '../../../src/http/errors.ts';
import { agentErrorCatalogue, errorCatalogue } from '../../../src/protocol/errors.ts';
import type { Exchange } from './exchange.ts';

/** One thing wrong with a case's answer. `kind` groups failures; `detail` says what came back. */
export interface Finding {
  kind: string;
  detail: string;
}

/** Which error shape an endpoint refuses with. */
export type Family = 'registry' | 'oauth' | 'jsonrpc' | 'agent-http';

/**
 * The family of a URL path: the OAuth server, an MCP or A2A endpoint, an agent's plain-HTTP tasks,
 * or the registry's API. A path the router cannot read (broken percent-encoding, a segment over
 * its length limit) reaches no route, and is answered as the registry answers anything unrouted.
 */
export function familyOf(pathname: string): Family {
  if (!routable(pathname)) return 'registry';
  if (/^\/(register|token|authorize|revoke|introspect|userinfo)\b/.test(pathname)) return 'oauth';
  if (/^(\/mcp|\/[^/.][^/]*\/(mcp|a2a))$/.test(pathname)) return 'jsonrpc';
  if (/^\/[^/]+\/tasks\//.test(pathname)) return 'agent-http';
  return 'registry';
}

const decodes = (segment: string): boolean => typeof decodeURIComponent(segment) === 'string';

function routable(pathname: string): boolean {
  try {
    return pathname.split('/').every((segment) => segment.length <= maxPathParamLength && decodes(segment));
  } catch {
    return false;
  }
}

const position = /:\d+:\d+/g;

/**
 * Whether the text holds a V8 stack frame: `at fn (file:1:2)`, or `at file:1:2` starting a line.
 * Found from each `:line:column` (at most a few hundred), looking back along its line: a regular
 * expression run over a megabyte answer from every "at " takes seconds, on the thread the server
 * answers on.
 */
export function hasStackFrame(text: string): boolean {
  position.lastIndex = 0;
  let checked = 0;
  for (let m = position.exec(text); m && checked < 300; m = position.exec(text), checked++) {
    const lineStart = Math.max(text.lastIndexOf('\n', m.index), text.lastIndexOf('\\n', m.index) + 1, m.index - 600);
    const line = text.slice(lineStart + 1, m.index);
    const open = line.lastIndexOf(' (');
    if (open >= 0 && text[m.index + m[0].length] === ')' && /(?:^|\s)at \S/.test(line.slice(0, open + 1))) return true;
    if (/^\s*at \S+$/.test(line)) return true;
  }
  return false;
}

const leakMarkers = ['/work/', 'node_modules', '.ts:', 'file:///'];
// The catalogue's "something failed inside" codes, as JSON anywhere in a body (also escaped, inside an MCP text).
const internalCodes: ReadonlyArray<[RegExp, string]> = [
  [/\\*"code\\*"\s*:\s*\\*"INTERNAL_ERROR\\*"/, 'INTERNAL_ERROR'],
  [/\\*"error\\*"\s*:\s*\\*"internal_error\\*"/, 'internal_error'],
  [/\\*"code\\*"\s*:\s*-32603\b/, 'JSON-RPC -32603'],
];

/**
 * What every answer must hold: no 5xx, no internal-error code (agents' INTERNAL_ERROR, the
 * registry's internal_error, JSON-RPC -32603) wherever it is nested, no stack trace or path of
 * this machine (unless the request itself held that text: an echo is not a leak), and a refusal
 * in its endpoint's shape.
 */
export function checkExchange(exchange: Exchange, requestText: string): Finding[] {
  const findings: Finding[] = [];
  const { status, body } = exchange;
  // What the HTTP parser refuses (431, 408) never reaches a route: the registry answers it, on any path.
  const family = status === 431 || status === 408 ? 'registry' : familyOf(new URL(exchange.url).pathname);
  if (status >= 500 && !upstreamFailure(status, body)) findings.push({ kind: `HTTP ${status}`, detail: excerpt(body) });
  for (const [pattern, name] of internalCodes) {
    if (pattern.test(body) && !pattern.test(requestText)) findings.push({ kind: name, detail: excerpt(body) });
  }
  if (hasStackFrame(body) && !hasStackFrame(requestText))
    findings.push({ kind: 'stack trace in body', detail: excerpt(body) });
  for (const marker of leakMarkers) {
    if (body.includes(marker) && !requestText.includes(marker))
      findings.push({
        kind: `"${marker}" in body`,
        detail: excerpt(body.slice(Math.max(0, body.indexOf(marker) - 100))),
      });
  }
  if (status >= 400 && status < 500) {
    const problem = refusalProblem(family, status, exchange);
    if (problem)
      findings.push({
        kind: `refusal not in the ${family} shape`,
        detail: `${status}: ${problem}; body ${excerpt(body)}`,
      });
  }
  return findings;
}

/**
 * A 502 that says a third party failed (the domain's own server, an agent, the brand-data API): the
 * catalogues define these codes as the answer when that party cannot be reached or answers
 * garbage, which is the truth here, where no name resolves. Any other 5xx is the server's own.
 */
function upstreamFailure(status: number, body: string): boolean {
  if (status !== 502) return false;
  const value = parse(body);
  if (!isRecord(value)) return false;
  const registryCode = value['error'];
  if (typeof registryCode === 'string' && errorCatalogue[registryCode as keyof typeof errorCatalogue]?.status === 502)
    return errorBodyProblem(value, status) === undefined;
  const agentError = isRecord(value['error'])
    ? value['error']
    : Array.isArray(value['errors'])
      ? value['errors'][0]
      : undefined;
  return (
    isRecord(agentError) && agentErrorCatalogue[agentError['code'] as keyof typeof agentErrorCatalogue]?.status === 502
  );
}

function refusalProblem(family: Family, status: number, exchange: Exchange): string | undefined {
  const parsed = parse(exchange.body);
  if (parsed === undefined) return 'not JSON';
  if (family === 'registry') return errorBodyProblem(parsed, status);
  // A JSON-RPC endpoint leaves who may call, how often and a shutdown to the registry (its 401's challenge leads to OAuth).
  if (family === 'jsonrpc' && [401, 403, 429, 503].includes(status) && errorBodyProblem(parsed, status) === undefined)
    return undefined;
  if (family === 'oauth') return oauthErrorProblem(parsed);
  if (family === 'jsonrpc') return jsonRpcErrorProblem(parsed);
  return agentEnvelopeProblem(parsed);
}

/** The registry's error body (src/http/errors.ts): `{error, message, details?, retry_after?}`, a catalogue code of the answer's status. */
export function errorBodyProblem(value: unknown, status?: number): string | undefined {
  if (!isRecord(value)) return 'not an object';
  const extra = Object.keys(value).filter((k) => !['error', 'message', 'details', 'retry_after'].includes(k));
  if (extra.length > 0) return `unexpected fields ${extra.join(', ')}`;
  const code = value['error'];
  if (typeof code !== 'string' || !(code in errorCatalogue))
    return `error ${JSON.stringify(code)} is not a catalogue code`;
  if (status !== undefined && errorCatalogue[code as keyof typeof errorCatalogue].status !== status)
    return `${code} is a ${errorCatalogue[code as keyof typeof errorCatalogue].status}, answered ${status}`;
  if (typeof value['message'] !== 'string' || value['message'] === '') return 'no message';
  const details = value['details'];
  if (
    details !== undefined &&
    !(
      Array.isArray(details) &&
      details.every(
        (d) =>
          isRecord(d) &&
          typeof d['in'] === 'string' &&
          typeof d['field'] === 'string' &&
          typeof d['message'] === 'string',
      )
    )
  )
    return 'malformed details';
  const retry = value['retry_after'];
  if (retry !== undefined && !(Number.isInteger(retry) && (retry as number) >= 0)) return 'malformed retry_after';
  return undefined;
}

/** An OAuth error (RFC 6749 section 5.2, RFC 7591 section 3.2.2). */
function oauthErrorProblem(value: unknown): string | undefined {
  if (!isRecord(value) || typeof value['error'] !== 'string') return 'no error code';
  if (value['error_description'] !== undefined && typeof value['error_description'] !== 'string')
    return 'malformed error_description';
  return undefined;
}

/** A JSON-RPC error response, or a batch of them. */
export function jsonRpcErrorProblem(value: unknown): string | undefined {
  const answers = Array.isArray(value) ? value : [value];
  for (const answer of answers) {
    if (!isRecord(answer) || answer['jsonrpc'] !== '2.0') return 'not JSON-RPC 2.0';
    const error = answer['error'];
    if (!isRecord(error) || !Number.isInteger(error['code']) || typeof error['message'] !== 'string')
      return 'no error object';
  }
  return undefined;
}

/** An agent's plain-HTTP error envelope: `{error}` (creative) or `{errors: [...]}` (signals). */
function agentEnvelopeProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'not an object';
  if ('error' in value) return errorObjectProblem(value['error']);
  if (Array.isArray(value['errors']) && value['errors'].length > 0)
    return value['errors'].map(errorObjectProblem).find((p) => p !== undefined);
  return 'neither error nor errors';
}

/** An agent error object (core/error.json, built by src/agents/runtime/envelope.ts). */
export function errorObjectProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'error is not an object';
  const extra = Object.keys(value).filter(
    (k) => !['code', 'message', 'field', 'suggestion', 'recovery', 'retry_after', 'details'].includes(k),
  );
  if (extra.length > 0) return `unexpected fields ${extra.join(', ')}`;
  const code = value['code'];
  if (typeof code !== 'string' || !(code in agentErrorCatalogue))
    return `code ${JSON.stringify(code)} is not a catalogue code`;
  if (value['recovery'] !== agentErrorCatalogue[code as keyof typeof agentErrorCatalogue].recovery)
    return `recovery ${JSON.stringify(value['recovery'])} for ${code}`;
  if (typeof value['message'] !== 'string' || value['message'] === '') return 'no message';
  for (const key of ['field', 'suggestion'] as const)
    if (value[key] !== undefined && typeof value[key] !== 'string') return `malformed ${key}`;
  const retry = value['retry_after'];
  if (retry !== undefined && !(Number.isInteger(retry) && (retry as number) >= 1 && (retry as number) <= 3600))
    return 'malformed retry_after';
  if (value['details'] !== undefined && !isRecord(value['details'])) return 'malformed details';
  return undefined;
}

export function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The start of a body, for a report line. */
export function excerpt(text: string, length = 300): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > length ? `${flat.slice(0, length)}… (${text.length} chars)` : flat;
}
