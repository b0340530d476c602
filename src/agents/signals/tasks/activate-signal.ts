import { randomUUID } from 'node:crypto';
import { AgentError } from '../../../protocol/errors.ts';
import {
  accountRefInput,
  errorObject,
  ownerOf,
  publishedSchemas,
  type AgentTask,
  type PrepareContext,
  type TaskArguments,
} from '../../runtime/index.ts';
import type { Approval, PurchaseRequest, SellerGovernance } from '../../seller-governance/index.ts';
import { agentActivationKey } from '../activations/activation-keys.ts';
import { destinationsInput, destinationsOf, targetKey, type Destination } from '../activations/destination.ts';
import {
  deleteActivations,
  insertActivation,
  lockSignalActivations,
  type ActivationRow,
  type NewActivation,
} from '../activations/sql.ts';
import {
  catalogPlatformDeployment,
  type CatalogSignal,
  type Deployment,
  type PlatformAvailability,
} from '../catalog/index.ts';
import { activationDeployment } from '../deployments.ts';
import { inCatalogTerms, unservedPlatform } from '../platforms.ts';
import type { SignalsView } from './get-signals.ts';
import { principalAccount, visibleTo } from '../visibility.ts';

/** The deployment targets named: `destinations` as the published schema names them, or `deployments` as the spec's calls do. */
function targetsOf(args: ActivateArgs): unknown {
  const named = args.destinations ?? args.deployments;
  if (named === undefined)
    throw new AgentError('INVALID_REQUEST', 'Name the deployment targets in destinations (or deployments).', {
      field: 'destinations',
    });
  return named;
}

/** A buyer's account (seat) on a platform: who may have signals activated there. */
export interface PlatformSeat {
  readonly platform: string;
  readonly account: string;
  /** The principal accounts that hold it (names as in visibility.ts). */
  readonly principals: readonly string[];
}

interface ActivateArgs {
  signal_agent_segment_id: string;
  destinations?: unknown;
  deployments?: unknown;
  action?: 'activate' | 'deactivate';
  pricing_option_id?: string;
}

/**
 * `activate_signal` (spec section 4; signals/activate-signal-request.json), mutating and
 * idempotent: on an agent target the signal is live at once (a key-value activation key); on a
 * platform it is recorded pending for the platform's activation time, the call answers its task
 * with the deployments not yet live, and the activation pass makes them live and completes the
 * task (polled with get_task or get_signals, or pushed as a signed webhook). All or nothing: one
 * target refused refuses the call. `action: deactivate` takes live activations down.
 */
export function activateSignalTask(
  view: SignalsView,
  seats: readonly PlatformSeat[],
  governance?: SellerGovernance,
): AgentTask<ActivateArgs & TaskArguments> {
  return {
    name: 'activate_signal',
    description:
      'Activate a signal on deployment targets: {type: "agent", agent_url} is live at once; {type: "platform", platform, account?} completes asynchronously (poll get_task or get_signals, or pass push_notification_config.url for a signed webhook). action "deactivate" takes it down.',
    input: {
      type: 'object',
      properties: {
        signal_agent_segment_id: { type: 'string', description: 'From get_signals.' },
        destinations: { ...destinationsInput, minItems: 1, description: 'core/destination.json targets.' },
        deployments: { ...destinationsInput, minItems: 1, description: 'The spec’s name for destinations.' },
        action: { type: 'string', enum: ['activate', 'deactivate'], description: 'Defaults to activate.' },
        pricing_option_id: {
          type: 'string',
          description: 'The pricing option chosen from the signal’s pricing_options; its first when absent.',
        },
        account: accountRefInput,
        push_notification_config: {
          type: 'object',
          description:
            'Where to send the completion webhook: {url, authentication: {schemes: ["HTTP_MESSAGE_SIGNATURES"]}}.',
        },
      },
      // idempotency_key: the runtime's, as for every mutating task (runtime/arguments.ts).
      required: ['signal_agent_segment_id'],
      additionalProperties: true,
    },
    ...publishedSchemas('signals/activate-signal'),
    publishedForm: (args) => ({ ...args, destinations: targetsOf(args) }),
    mutates: true,
    mayDefer: true,
    // An activation on a governed account is approved by the buyer's governance agent first
    // (phase purchase, before the transaction opens); taking one down commits nothing.
    ...(governance
      ? {
          prepare: (args: ActivateArgs & TaskArguments, pctx: PrepareContext) =>
            args.action === 'deactivate'
              ? Promise.resolve(undefined)
              : governance.checkPurchase(args as PurchaseRequest, pctx, async () => ({
                  start_time: pctx.clock.now().toISOString(),
                })),
        }
      : {}),
    async handler(args, ctx) {
      const field = args.destinations !== undefined ? 'destinations' : 'deployments';
      const named = targetsOf(args);
      const signal = view.offering().bySegmentId(args.signal_agent_segment_id);
      if (!signal) {
        throw new AgentError(
          'SIGNAL_AGENT_SEGMENT_NOT_FOUND',
          `No signal ${JSON.stringify(args.signal_agent_segment_id)}.`,
          { field: 'signal_agent_segment_id', suggestion: 'Take signal_agent_segment_id from a get_signals answer.' },
        );
      }
      checkVisible(signal, principalAccount(ctx.principal));
      const offering = view.offering();
      const targets = inCatalogTerms(destinationsOf(named, field)!, offering.platformOf);
      checkDistinct(targets, field);
      checkPricingOption(signal, args.pricing_option_id);
      const served = new Set([...offering.platforms, ...seats.map((s) => s.platform)]);
      const caller = { served, seats, account: principalAccount(ctx.principal) };
      checkTargets(targets.flatMap((target, index) => refusalOf(signal, target, `${field}[${index}]`, caller) ?? []));

      const owner = ownerOf(ctx.principal);
      const existing = new Map(
        (await lockSignalActivations(ctx.db, ctx.tenant.name, owner, signal.signal_agent_segment_id)).map((row) => [
          row.target,
          row,
        ]),
      );
      const now = ctx.clock.now();

      if (args.action === 'deactivate') {
        targets.forEach((target, index) => {
          const row = existing.get(targetKey(target));
          if (row && !row.deployed_at)
            throw new AgentError(
              'INVALID_STATE',
              `The activation on this target is still under way (task ${row.task_id}); cancel that task instead.`,
              { field: `${field}[${index}]` },
            );
        });
        await deleteActivations(ctx.db, ctx.tenant.name, owner, signal.signal_agent_segment_id, targets.map(targetKey));
        // Live for everyone on the agent's own seat is the platform's, not the caller's to take down: it stays as it is.
        return {
          deployments: targets.map((target): Deployment => {
            const live = liveForEveryone(signal, target);
            return live ? catalogPlatformDeployment(live) : { ...target, is_live: false };
          }),
        };
      }

      const by = { kind: ctx.principal.kind, subject: ctx.principal.subject };
      const fresh: NewActivation[] = [];
      const answer: (Deployment | NewActivation)[] = targets.map((target, index) => {
        const key = targetKey(target);
        const row = existing.get(key);
        if (row?.deployed_at || liveForEveryone(signal, target)) {
          throw new AgentError('ALREADY_ACTIVATED', `${signal.name} is already live on this target.`, {
            field: `${field}[${index}]`,
            suggestion: 'Use the activation key get_signals shows for this target.',
          });
        }
        if (row) return activationDeployment(row, now);
        const pending =
          target.type === 'platform' ? new Date(now.getTime() + minutesOn(signal, target, view) * 60_000) : null;
        const activation: NewActivation = {
          signal: signal.signal_agent_segment_id,
          target: key,
          destination: target,
          activationKey: pending ? null : agentActivationKey(signal.signal_agent_segment_id),
          taskId: null,
          caller: by,
          position: index,
          dueAt: pending,
          deployedAt: pending ? null : now,
        };
        fresh.push(activation);
        return activation;
      });
      // A call that waits on a platform answers its task, whose result will list every target it activated.
      const taskId = fresh.some((a) => a.dueAt !== null) ? randomUUID() : null;
      for (const activation of fresh)
        await insertActivation(ctx.db, ctx.tenant.name, owner, { ...activation, taskId }, now);
      const approval = ctx.prepared as Approval | undefined;
      if (approval) await governance!.recordApproval(ctx.db, owner, taskId ?? `act_${randomUUID()}`, approval);
      const deployments = answer.map((item) => ('is_live' in item ? item : activationDeployment(asRow(item), now)));
      if (taskId)
        return ctx.defer({
          held: true,
          taskId,
          answer: { deployments },
          message: 'Activation on the platform is under way; poll get_task or get_signals, or wait for the webhook.',
        });
      return { deployments };
    },
  };
}

function checkVisible(signal: CatalogSignal, account: string | undefined): void {
  if (visibleTo(signal, account)) return;
  // A custom signal is built to order and known by name, so the caller is told it may not use it;
  // an owned signal is someone's first-party data, whose existence is not the caller's to learn.
  const suggestion = 'Activate a signal get_signals lists for this principal.';
  if (signal.signal_type === 'custom')
    throw new AgentError(
      'AGENT_ACCESS_DENIED',
      'This custom signal was built for other accounts; this principal may not activate it.',
      { field: 'signal_agent_segment_id', suggestion },
    );
  throw new AgentError('AGENT_NOT_FOUND', 'No such signal is visible to this principal.', {
    field: 'signal_agent_segment_id',
    suggestion,
  });
}

function checkDistinct(targets: readonly Destination[], field: string): void {
  const seen = new Set<string>();
  targets.forEach((target, index) => {
    if (seen.has(targetKey(target)))
      throw new AgentError('INVALID_REQUEST', 'The same target is named twice.', { field: `${field}[${index}]` });
    seen.add(targetKey(target));
  });
}

function checkPricingOption(signal: CatalogSignal, chosen: string | undefined): void {
  if (chosen === undefined || signal.pricing_options.some((o) => o.pricing_option_id === chosen)) return;
  throw new AgentError(
    'INVALID_REQUEST',
    `pricing_option_id must be one of the signal's: ${signal.pricing_options.map((o) => o.pricing_option_id).join(', ')}.`,
    { field: 'pricing_option_id' },
  );
}

/**
 * All or nothing, answered per target: every target refused is named in the one error's
 * `details.errors` (each a core/error.json object with its field), the first of them in the error
 * itself, so a buyer learns at once which of its targets to change.
 */
function checkTargets(refusals: readonly AgentError[]): void {
  const [first] = refusals;
  if (!first) return;
  const message =
    refusals.length === 1
      ? first.message
      : `${refusals.length} of the targets cannot take this signal: ${refusals.map((r) => `${r.field}: ${r.message}`).join(' ')}`;
  throw new AgentError(first.code, message, {
    field: first.field,
    suggestion: first.suggestion,
    recovery: refusals.every((r) => r.recovery === 'correctable') ? 'correctable' : first.recovery,
    details: { errors: refusals.map(errorObject) },
  });
}

/** Why the signal cannot go on a target: a platform the agent does not serve, or a seat the caller does not hold, is unauthorized; a platform that does not carry the signal refuses it. */
function refusalOf(
  signal: CatalogSignal,
  target: Destination,
  field: string,
  caller: { served: ReadonlySet<string>; seats: readonly PlatformSeat[]; account: string | undefined },
): AgentError | undefined {
  if (target.type !== 'platform') return undefined;
  const { account } = caller;
  const platformSeats = caller.seats.filter((s) => s.platform === target.platform);
  if (!caller.served.has(target.platform)) return unservedPlatform(target.platform, `${field}.platform`, caller.served);
  if (
    target.account !== undefined &&
    !platformSeats.some((s) => s.account === target.account && account !== undefined && s.principals.includes(account))
  ) {
    return new AgentError(
      'DEPLOYMENT_UNAUTHORIZED',
      `This principal may not use account ${JSON.stringify(target.account)} on ${target.platform}.`,
      {
        field: `${field}.account`,
        suggestion: 'Name a seat your account holds on the platform, or no account for the agent’s own seat.',
      },
    );
  }
  if (!signal.platforms.some((p) => p.platform === target.platform)) {
    return new AgentError('ACTIVATION_FAILED', `${target.platform} does not carry ${signal.name}.`, {
      field: `${field}.platform`,
      suggestion: 'get_signals with this target lists the signals it carries.',
      // The platform will not carry it on a retry either: the buyer picks another.
      recovery: 'correctable',
    });
  }
  return undefined;
}

/** Where the catalog says the signal is live for every buyer on the target (the agent's own seat of a platform); undefined when it is not. */
function liveForEveryone(signal: CatalogSignal, target: Destination): PlatformAvailability | undefined {
  if (target.type !== 'platform' || target.account !== undefined) return undefined;
  return signal.platforms.find((p) => p.platform === target.platform && p.segment_id !== undefined);
}

function minutesOn(signal: CatalogSignal, target: Destination & { type: 'platform' }, view: SignalsView): number {
  return view.minutes(signal.platforms.find((p) => p.platform === target.platform)!);
}

function asRow(activation: NewActivation): ActivationRow {
  return {
    signal_agent_segment_id: activation.signal,
    target: activation.target,
    destination: activation.destination,
    activation_key: activation.activationKey,
    task_id: activation.taskId,
    caller: activation.caller,
    position: activation.position,
    due_at: activation.dueAt,
    deployed_at: activation.deployedAt,
  };
}
