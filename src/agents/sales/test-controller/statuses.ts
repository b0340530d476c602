import { lockAccount, setAccountStatus, type AccountStatus } from '../accounts/index.ts';
import { lockCreative, setCreativeStatus, type CreativeStatus } from '../creatives/index.ts';
import {
  canMove,
  isTerminal,
  lockMediaBuy,
  nextStatuses,
  setMediaBuyStatus,
  type MediaBuyStatus,
} from '../media-buys/index.ts';
import { actor, Refusal, transition, type Answer, type Scope } from './scope.ts';

/** enums/account-status.json calls these terminal; a closed account has also given up its natural key. */
const terminalAccountStatuses: ReadonlySet<AccountStatus> = new Set(['rejected', 'closed']);

/** force_account_status: the sandbox account itself, to any status but out of a terminal one. */
export async function forceAccountStatus({ ctx, params, account, owner, now }: Scope): Promise<Answer> {
  const id = params['account_id'] as string;
  const status = params['status'] as AccountStatus;
  const entity = `Account ${id}`;
  // Only the account the call is made for: another, even the caller's own, is not this sandbox's.
  if (id !== account.account_id)
    throw new Refusal('NOT_FOUND', `${entity} is not the sandbox account of this call.`, null);
  return ctx.atomically(async (tx) => {
    const row = await lockAccount(tx, owner, id);
    if (!row) throw new Refusal('NOT_FOUND', `${entity} was not found.`, null);
    if (row.status === status) return transition(entity, status, status);
    if (terminalAccountStatuses.has(row.status))
      throw new Refusal('INVALID_TRANSITION', `${entity} is ${row.status}, which is terminal.`, row.status);
    await setAccountStatus(tx, id, status, { by: actor, at: now });
    return transition(entity, row.status, status);
  });
}

/**
 * force_media_buy_status: a buy of the sandbox account, along a move of the state machine
 * (media-buys/state.ts: whoever makes it, the controller standing in for them), so nothing out of
 * a finished buy and no rejection once it ran; one change of it, revision and history included.
 */
export async function forceMediaBuyStatus({ ctx, params, account, owner, now }: Scope): Promise<Answer> {
  const id = params['media_buy_id'] as string;
  const status = params['status'] as MediaBuyStatus;
  const entity = `Media buy ${id}`;
  return ctx.atomically(async (tx) => {
    const buy = await lockMediaBuy(tx, owner, id);
    if (!buy || buy.account_id !== account.account_id)
      throw new Refusal('NOT_FOUND', `${entity} was not found in account ${account.account_id}.`, null);
    if (buy.status === status) return transition(entity, status, status);
    if (isTerminal(buy.status))
      throw new Refusal('INVALID_TRANSITION', `${entity} is ${buy.status}, which is terminal.`, buy.status);
    if (!canMove(buy.status, status)) {
      throw new Refusal(
        'INVALID_TRANSITION',
        `${entity} cannot move from ${buy.status} to ${status}; from ${buy.status} it moves to ${nextStatuses(buy.status).join(', ')}.`,
        buy.status,
      );
    }
    const reason = params['rejection_reason'] as string | undefined;
    await setMediaBuyStatus(tx, buy, status, { ...(reason === undefined ? {} : { reason }), actor, now });
    return transition(entity, buy.status, status);
  });
}

/**
 * force_creative_status: a creative of the sandbox account's library, to any status, but an
 * archived one only back to approved (enums/creative-status.json: archived creatives "may be
 * unarchived back to approved").
 */
export async function forceCreativeStatus({ ctx, params, account, owner, now }: Scope): Promise<Answer> {
  const id = params['creative_id'] as string;
  const status = params['status'] as CreativeStatus;
  const entity = `Creative ${id}`;
  return ctx.atomically(async (tx) => {
    const creative = await lockCreative(tx, owner, account.account_id, id);
    if (!creative) throw new Refusal('NOT_FOUND', `${entity} was not found in account ${account.account_id}.`, null);
    if (creative.status === status) return transition(entity, status, status);
    if (creative.status === 'archived' && status !== 'approved')
      throw new Refusal(
        'INVALID_TRANSITION',
        `${entity} is archived; it can only be unarchived back to approved.`,
        creative.status,
      );
    const reason = status === 'rejected' ? (params['rejection_reason'] as string | undefined) : undefined;
    await setCreativeStatus(tx, creative, status, { ...(reason === undefined ? {} : { reason }), by: actor, at: now });
    return transition(entity, creative.status, status);
  });
}
