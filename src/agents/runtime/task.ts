import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ConfiguredCredential, Principal } from '../../auth/index.ts';
import type { Clock } from '../../clock.ts';
import type { Database, Queryable } from '../../db/database.ts';

/** A JSON Schema (draft 2020-12 or 07 subset that Ajv reads), as TypeBox produces. */
export type JsonSchema = Record<string, unknown>;

/**
 * What a task does with the account its request names, so a tenant with implicit accounts knows
 * whether a reference it has not seen is a declaration: `acts` (buys, uploads, forces state: the
 * reference is the account it acts on), `reads` (lists what is under it: an unknown one holds
 * nothing), `informs` (the account only colours the answer, which never depends on it existing).
 */
export type AccountUse = 'acts' | 'reads' | 'informs';

/** The account a request acts on, as the tenant resolved its `account` reference. */
export interface ResolvedAccount {
  account_id: string;
  [detail: string]: unknown;
}

/** What a long-running task reports while it works (`progress` of core/tasks-get-response.json). */
export interface TaskProgress {
  percentage?: number;
  current_step?: string;
  step_number?: number;
  total_steps?: number;
}

export interface TaskContext {
  /**
   * The transaction the task runs in. A mutating task's writes commit together with its
   * idempotency record (or, for a long task, with its outcome): both or neither.
   */
  db: Queryable;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The caller; for a long task, the caller that started it, as it was then. */
  principal: Principal;
  /** The request's `account`, resolved by the tenant; undefined when it sent none or the tenant resolves none. */
  account: ResolvedAccount | undefined;
  tenant: Tenant;
  /** Aborted when the task is canceled (long tasks); a handler that sees it should stop. */
  signal: AbortSignal;
  /** Long tasks: records progress for `get_task` (the latest report wins; written in the background). */
  progress(update: TaskProgress): void;
  /** True when a worker runs the task after it was answered `submitted`; false while its caller waits. */
  background: boolean;
  /**
   * What a handler returns to answer `submitted` instead of a result (a buy that waits for the
   * seller's approval): the task is recorded in the call's transaction, with its idempotency
   * record, and finished later by a worker or, when held, by `completeTask`. Return it before
   * writing anything: the call's transaction commits only the task.
   */
  defer(options?: DeferOptions): Deferral;
  /** What the task's `prepare` answered before the transaction opened; undefined without one. */
  prepared: unknown;
  /** Runs `fn` in one transaction: the task's own when it has one (mutating and long tasks), else a new one. */
  atomically<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Says this task queued webhooks in its transaction (`completeTask`, `enqueueWebhookEvent`): they leave once it commits. */
  webhooksQueued(): void;
}

export interface DeferOptions {
  /** No worker runs it: it waits for `completeTask` (an approval, a sandbox test controller). Otherwise a worker runs the handler again, with `background` true. */
  held?: boolean;
  /** The id to answer with (a sandbox caller's choice, up to 128 characters); a new UUID when absent. */
  taskId?: string;
  /** Said with the `submitted` answer. */
  message?: string;
  /** Fields answered beside `task_id` and `status`: what is already known (an activation's pending deployments). */
  answer?: Record<string, unknown>;
}

/** A handler's answer that the task goes on in the background; see `TaskContext.defer`. */
export class Deferral {
  readonly options: DeferOptions;
  constructor(options: DeferOptions) {
    this.options = options;
  }
}

/**
 * Thrown by a long task's handler to stop in `input-required`: its writes so far commit, and the
 * caller reads `message` (and `data`) from `get_task`.
 */
export class InputRequired extends Error {
  readonly data: Record<string, unknown> | undefined;
  constructor(message: string, data?: Record<string, unknown>) {
    super(message);
    this.name = 'InputRequired';
    this.data = data;
  }
}

/** The arguments a task's handler receives: checked against its input schema and its published request schema. */
export type TaskArguments = Record<string, unknown>;

/**
 * One task an agent offers: what it takes, what it answers, and whether it changes anything.
 * `Args` is what its handler receives, once the runner has checked the arguments.
 */
export interface AgentTask<Args extends TaskArguments = TaskArguments> {
  name: string;
  description: string;
  /** What MCP's tools/list advertises, self-contained; checked first (runtime/arguments.ts). */
  input: JsonSchema;
  /**
   * The protocol's published request schema (`/schemas/3.0.6/…`; `publishedSchemas` declares it
   * with the response as `output`), which the input schema only summarizes and buyers' tools are
   * written to: the runner checks the arguments against it once, after the input schema and the
   * account reference, before the idempotency key, `prepare`, the account's resolution or the handler.
   */
  request?: string;
  /**
   * The arguments as the published schema reads them, when the task also takes what the spec
   * names otherwise (a field's older name, a mode the schema requires and older clients leave
   * out); what the handler receives is unchanged.
   */
  publishedForm?(args: Args): TaskArguments;
  /**
   * What the task answers (for a long task: its result). Checked against every answer when
   * AGENT_VALIDATE_OUTPUTS is on (always in the tests). `{$ref: '/schemas/…'}` names a published schema.
   */
  output?: JsonSchema;
  /** Mutating tasks require an `idempotency_key` (the published schemas' pattern; a UUID v4 is best) and replay their first success. */
  mutates: boolean;
  /** What the task does with its `account` reference, told to the tenant's `resolveAccount`; `acts` for mutating tasks, else `reads`. */
  accountUse?: AccountUse;
  /**
   * Long-running: answered at once with `{task_id, status: 'submitted'}` and run by a worker; the
   * caller polls `get_task` or, with `push_notification_config.url`, is sent a signed webhook.
   */
  longRunning?: boolean;
  /** Its handler may answer `submitted` (`ctx.defer`); its tenant then offers `get_task` and `cancel_task`. */
  mayDefer?: boolean;
  /**
   * Work done before the call's transaction opens, whose result the handler reads as
   * `ctx.prepared`: fetching what a buyer's URLs name, so that no transaction (on PGlite, the one
   * connection) waits on another host, or asking another agent (a governance check). It runs before
   * every call but a replay (whose answer is the one recorded), and writes nothing of this agent's.
   */
  prepare?(args: Args, ctx: PrepareContext): Promise<unknown>;
  handler(args: Args, ctx: TaskContext): Promise<Record<string, unknown> | Deferral>;
}

/** What a task's `prepare` is given: the database itself (no transaction), the clock and the caller. */
export interface PrepareContext {
  db: Database;
  /** A worker runs a task answered `submitted` earlier: what the call's prepare checked then need not be checked again. */
  background: boolean;
  clock: Clock;
  log: FastifyBaseLogger;
  principal: Principal;
  signal: AbortSignal;
}

export type AgentProtocol = 'media_buy' | 'signals' | 'governance' | 'sponsored_intelligence' | 'creative' | 'brand';

/** A compliance claim an agent makes in `get_ap_capabilities` (enums/specialism.json). */
export type Specialism =
  | 'audience-sync'
  | 'brand-rights'
  | 'collection-lists'
  | 'content-standards'
  | 'creative-ad-server'
  | 'creative-generative'
  | 'creative-template'
  | 'governance-aware-seller'
  | 'governance-delivery-monitor'
  | 'governance-spend-authority'
  | 'property-lists'
  | 'sales-broadcast-tv'
  | 'sales-catalog-driven'
  | 'sales-guaranteed'
  | 'sales-non-guaranteed'
  | 'sales-proposal-mode'
  | 'sales-social'
  | 'signal-marketplace'
  | 'signal-owned'
  | 'signed-requests';

/** An agent served by the runtime: its tasks, mounted at `path` (`/sales` serves `/sales/mcp`). */
export interface Tenant {
  name: string;
  path: string;
  description: string;
  protocols: AgentProtocol[];
  /** The specialisms it claims; none when absent. */
  specialisms?: Specialism[];
  tasks: AgentTask[];
  /** Also serve the tasks over plain HTTP (`<path>/tasks/<task>`), with this error envelope. */
  httpEnvelope?: 'creative' | 'signals';
  /**
   * Who may call this agent, beyond holding a valid bearer credential of the deployment (for
   * example, only organizations with an account here); everyone when absent.
   */
  authorize?: (principal: Principal) => boolean | Promise<boolean>;
  /**
   * Resolves a request's `account` reference (core/account-ref.json, which the runner has checked it
   * against: `{account_id}` or `{brand, operator, sandbox?}`) inside the task's transaction; throws
   * an AgentError when the caller may not use it. Without it, handlers get `account: undefined`.
   */
  resolveAccount?: (
    ref: Record<string, unknown>,
    ctx: {
      db: Queryable;
      principal: Principal;
      /** Absent: `reads`. */ use?: AccountUse;
      /** The call's time (its clock's); absent: now. */ now?: Date;
    },
  ) => Promise<ResolvedAccount | undefined>;
  /**
   * The publishers' properties it sells (core/publisher-property-selector.json), for the
   * deployment's adagents.json; none when it sells none.
   */
  sells?: () => readonly object[];
  /**
   * The protocol-specific blocks of its get_ap_capabilities answer (`media_buy`, `account`,
   * `creative`...), beside what the runtime states itself (versions, protocols, tasks, signing).
   */
  capabilities?: () => Record<string, unknown>;
  /** Work it does on its own, repeatedly (moving statuses with time, sending reports), on every instance. */
  passes?: readonly TenantPass[];
  /** HTTP routes of its own beside its task endpoints (hosted previews, generated assets), registered when it is mounted. */
  routes?: (app: FastifyInstance, deps: TenantRouteDeps) => void;
  /**
   * Called once the app is ready (and `stop` before it closes): to begin following the database's
   * changes to what it keeps in memory. A failure is logged and the agent serves on, reading the
   * database instead.
   */
  start?: (deps: TenantRouteDeps) => Promise<void>;
  stop?: () => Promise<void>;
  /**
   * Bearer tokens this agent accepts besides the registry's own API keys and access tokens (a
   * partner's token, a public test credential), each giving its own principal.
   */
  credentials?: readonly ConfiguredCredential[];
}

/** Where and for whom an agent is mounted: what each agent's options start with. */
export interface TenantMount {
  /** The deployment's public base URL, asked when answering (known once the server listens). */
  base: () => string;
  /** Where it is mounted (`/sales` serves `/sales/mcp`, `/sales/a2a`, ...); each agent has its own default. */
  path?: string;
  /** Tokens it accepts besides the registry's own (the test deployment's public credential). */
  credentials?: readonly ConfiguredCredential[];
}

/** What a tenant's own routes are given when it is mounted. */
export interface TenantRouteDeps {
  db: Database;
  clock: Clock;
}

/** A tenant's background work: run every `intervalMs` (and when woken), at most one run at a time per instance. */
export interface TenantPass {
  name: string;
  intervalMs: number;
  run(ctx: PassContext): Promise<void>;
}

export interface PassContext {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Tells the webhook sender that this run committed webhooks (enqueueWebhookEvent), so they leave now rather than at its next poll. */
  webhooksQueued(): void;
}
