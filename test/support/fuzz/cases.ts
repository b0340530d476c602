import type { Random } from '../random.ts';
import type { Dictionary } from './dictionary.ts';
import { hostileHeaderValues } from './hostile.ts';
import type { Schema } from './schema-values.ts';

/** Who a case calls as: nobody, the operator's admin key, the agents' public test credential, or a forged or garbled header. */
export type Credential = 'anonymous' | 'admin' | 'agent' | 'forged';

/** A plain HTTP request, as sent: the path with its query already encoded, the body as text. */
export interface HttpCall {
  kind: 'http';
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A tool or skill called through an official SDK client: MCP `tools/call` or an A2A message naming a skill. */
export interface ToolCall {
  kind: 'mcp' | 'a2a';
  /** The endpoint's path prefix: `/sales` for `/sales/mcp`, '' for the registry's `/mcp`. */
  endpoint: string;
  tool: string;
  args: unknown;
  headers: Record<string, string>;
}

export interface FuzzCase {
  index: number;
  target: string;
  credential: Credential;
  call: HttpCall | ToolCall;
  /** How the input was made and broken, for the report. */
  notes: string[];
}

/** What a target needs to make a case: the run's shared knowledge. */
export interface CaseContext {
  random: Random;
  index: number;
  dictionary: Dictionary;
  resolve(ref: string): Schema | undefined;
  canaryUrl: string;
  credentials: Record<'admin' | 'agent', string>;
}

export interface Target {
  /** e.g. `GET /api/brands/resolve`, `mcp /sales get_products`. */
  id: string;
  make(ctx: CaseContext): Omit<FuzzCase, 'index' | 'target'>;
}

/**
 * A credential for the case and the headers that carry it. Protected endpoints get a real one more
 * often, so most cases reach past the guard; every endpoint also meets none and garbled ones.
 */
export function pickCredential(
  ctx: CaseContext,
  prefer: 'admin' | 'agent',
  secured: boolean,
): { credential: Credential; headers: Record<string, string> } {
  const { random } = ctx;
  const roll = random.next();
  const other = prefer === 'admin' ? 'agent' : 'admin';
  const [preferred, second, none] = secured ? [0.55, 0.2, 0.12] : [0.45, 0.1, 0.35];
  const credential: Credential =
    roll < preferred
      ? prefer
      : roll < preferred + second
        ? other
        : roll < preferred + second + none
          ? 'anonymous'
          : 'forged';
  const headers: Record<string, string> = {};
  if (credential === 'admin' || credential === 'agent')
    headers['authorization'] = `Bearer ${ctx.credentials[credential]}`;
  if (credential === 'forged') headers['authorization'] = random.pick(hostileHeaderValues);
  // The organization a credential acts for: sometimes garbled too.
  if (credential === 'admin' && random.chance(0.08))
    headers['ap-organization'] = random.pick([...hostileHeaderValues, 'ap-test-deployment', 'no-such-org']);
  return { credential, headers };
}
