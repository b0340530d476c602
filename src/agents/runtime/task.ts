import type { ConfiguredCredential } from '../../auth/configured-credentials.ts';
import type { Principal } from '../../auth/principal.ts';

/** A JSON Schema (draft 2020-12 or 07 subset that Ajv reads), as TypeBox produces. */
export type JsonSchema = Record<string, unknown>;

export interface TaskContext {
  principal: Principal;
  /** The tenant the task runs in. */
  tenant: string;
}

/** One task an agent offers: what it takes, what it answers, and whether it changes anything. */
export interface AgentTask {
  name: string;
  description: string;
  input: JsonSchema;
  output?: JsonSchema;
  /** Mutating tasks require an `idempotency_key` (UUID v4) and replay their first success. */
  mutates: boolean;
  /**
   * Long-running: answered at once with `{task_id, status: 'submitted'}` and run by a worker; the
   * caller polls `get_task` or, with `push_notification_config.url`, is sent a signed webhook.
   */
  longRunning?: boolean;
  handler(args: Record<string, unknown>, ctx: TaskContext): Promise<Record<string, unknown>>;
}

export type AgentProtocol = 'media_buy' | 'signals' | 'governance' | 'sponsored_intelligence' | 'creative' | 'brand';

/** An agent served by the runtime: its tasks, mounted at `path` (`/sales` serves `/sales/mcp`). */
export interface Tenant {
  name: string;
  path: string;
  description: string;
  protocols: AgentProtocol[];
  tasks: AgentTask[];
  /** Also serve the tasks over plain HTTP (`<path>/tasks/<task>`), with this error envelope. */
  httpEnvelope?: 'creative' | 'signals';
  /**
   * Who may call this agent, beyond holding a valid bearer credential of the deployment (for
   * example, only organizations with an account here); everyone when absent.
   */
  authorize?: (principal: Principal) => boolean | Promise<boolean>;
  /**
   * Bearer tokens this agent accepts besides the registry's own API keys and access tokens (a
   * partner's token, a public test credential), each giving its own principal.
   */
  credentials?: readonly ConfiguredCredential[];
}
