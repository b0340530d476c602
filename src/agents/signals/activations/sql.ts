import type { Queryable } from '../../../db/database.ts';
import type { ActivationKey } from '../catalog/index.ts';
import type { Destination } from './destination.ts';

/** A signal_activations row: a signal live, or on its way, on one target for one owner. */
export interface ActivationRow {
  signal_agent_segment_id: string;
  target: string;
  destination: Destination;
  activation_key: ActivationKey | null;
  task_id: string | null;
  caller: { kind: string; subject: string };
  position: number;
  due_at: Date | null;
  deployed_at: Date | null;
}

export interface NewActivation {
  signal: string;
  target: string;
  destination: Destination;
  activationKey: ActivationKey | null;
  taskId: string | null;
  caller: { kind: string; subject: string };
  position: number;
  dueAt: Date | null;
  deployedAt: Date | null;
}

const columns =
  'signal_agent_segment_id, target, destination, activation_key, task_id, caller, position, due_at, deployed_at';

/**
 * A pending activation whose call's task was canceled (or pruned since) is on its way nowhere: the
 * pass drops it when it falls due, and until then it counts for nothing (`s` is signal_activations).
 */
const abandoned = `s.deployed_at is null and not exists (
  select 1 from agent_tasks t where t.tenant = s.tenant and t.principal = (s.caller->>'kind') || ':' || (s.caller->>'subject') and t.task_id = s.task_id and t.status <> 'canceled')`;

/** The owner's activations of the given signals (a page of get_signals), to say what is live for the caller. */
export function ownerActivations(
  db: Queryable,
  tenant: string,
  owner: string,
  signals: readonly string[],
): Promise<ActivationRow[]> {
  return db.query<ActivationRow>(
    `select ${columns} from signal_activations s
     where tenant = $1 and owner = $2 and signal_agent_segment_id = any($3::text[]) and not (${abandoned})`,
    [tenant, owner, signals],
  );
}

/**
 * The owner's activations of one signal, locked until the transaction ends: two calls activating
 * it concurrently queue here, so the second sees what the first wrote. Abandoned ones are dropped
 * first, so the target can be activated anew.
 */
export async function lockSignalActivations(
  tx: Queryable,
  tenant: string,
  owner: string,
  signal: string,
): Promise<ActivationRow[]> {
  await tx.query(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, [
    JSON.stringify(['signal_activations', tenant, owner, signal]),
  ]);
  await tx.query(
    `delete from signal_activations s where tenant = $1 and owner = $2 and signal_agent_segment_id = $3 and ${abandoned}`,
    [tenant, owner, signal],
  );
  return tx.query<ActivationRow>(
    `select ${columns} from signal_activations where tenant = $1 and owner = $2 and signal_agent_segment_id = $3`,
    [tenant, owner, signal],
  );
}

export async function insertActivation(
  tx: Queryable,
  tenant: string,
  owner: string,
  row: NewActivation,
  now: Date,
): Promise<void> {
  await tx.query(
    `insert into signal_activations (tenant, owner, signal_agent_segment_id, target, destination, activation_key, task_id, caller, position, requested_at, due_at, deployed_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      tenant,
      owner,
      row.signal,
      row.target,
      JSON.stringify(row.destination),
      row.activationKey && JSON.stringify(row.activationKey),
      row.taskId,
      JSON.stringify(row.caller),
      row.position,
      now,
      row.dueAt,
      row.deployedAt,
    ],
  );
}

export async function deleteActivations(
  tx: Queryable,
  tenant: string,
  owner: string,
  signal: string,
  targets: readonly string[],
): Promise<void> {
  await tx.query(
    `delete from signal_activations where tenant = $1 and owner = $2 and signal_agent_segment_id = $3 and target = any($4::text[])`,
    [tenant, owner, signal, targets],
  );
}

/** Pending activations due by `now`, locked (others' passes skip them), oldest first. */
export function claimDue(
  tx: Queryable,
  tenant: string,
  now: Date,
  limit: number,
): Promise<(ActivationRow & { owner: string })[]> {
  return tx.query(
    `select owner, ${columns} from signal_activations where tenant = $1 and deployed_at is null and due_at <= $2 order by due_at limit $3 for update skip locked`,
    [tenant, now, limit],
  );
}

export async function markLive(
  tx: Queryable,
  tenant: string,
  owner: string,
  signal: string,
  target: string,
  key: ActivationKey,
  at: Date,
): Promise<void> {
  await tx.query(
    `update signal_activations set activation_key = $5, deployed_at = $6, due_at = null where tenant = $1 and owner = $2 and signal_agent_segment_id = $3 and target = $4`,
    [tenant, owner, signal, target, JSON.stringify(key), at],
  );
}

/** Every activation a call's task made, in the order the call named them. */
export function taskActivations(
  tx: Queryable,
  tenant: string,
  owner: string,
  taskId: string,
): Promise<ActivationRow[]> {
  return tx.query<ActivationRow>(
    `select ${columns} from signal_activations where tenant = $1 and owner = $2 and task_id = $3 order by position`,
    [tenant, owner, taskId],
  );
}

/** Forgets the pending activations of a task its caller canceled. */
export async function dropPending(tx: Queryable, tenant: string, owner: string, taskId: string): Promise<void> {
  await tx.query(
    `delete from signal_activations where tenant = $1 and owner = $2 and task_id = $3 and deployed_at is null`,
    [tenant, owner, taskId],
  );
}
