import canonicalize from 'canonicalize';
import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { seedCreative } from '../creatives/index.ts';
import { seedMediaBuy } from '../media-buys/index.ts';
import { actor, Refusal, type Answer, type Scope } from './scope.ts';
import * as sql from './sql.ts';

/** seed_creative: a creative of the sandbox account's library, under the caller's creative_id (see creatives' seedCreative). */
export function seedCreativeScenario(scope: Scope): Promise<Answer> {
  const { params, account, owner, now, options } = scope;
  const id = params['creative_id'] as string;
  return seed(scope, { kind: 'creative', entityId: id }, `Creative ${id}`, async (tx, fixture) => {
    const { formats, products } = await options.shelf(tx, account);
    return seedCreative(tx, { owner, account, creativeId: id, fixture, formats, products, by: actor, at: now });
  });
}

/** seed_media_buy: a buy of the sandbox account under the caller's media_buy_id (see media-buys' seedMediaBuy), of its products, seeded ones included. */
export function seedMediaBuyScenario(scope: Scope): Promise<Answer> {
  const { params, account, owner, now, options } = scope;
  const id = params['media_buy_id'] as string;
  return seed(scope, { kind: 'media_buy', entityId: id }, `Media buy ${id}`, async (tx, fixture) => {
    const { products } = await options.shelf(tx, account);
    return seedMediaBuy(tx, { owner, account, mediaBuyId: id, fixture, products, actor, now });
  });
}

/** seed_plan: a plan of the caller's with the deployment's governance agent, which its checks then run against. */
export function seedPlanScenario(scope: Scope): Promise<Answer> {
  const { ctx, params, now, options } = scope;
  const id = params['plan_id'] as string;
  return seed(scope, { kind: 'plan', entityId: id }, `Plan ${id}`, (tx, fixture) =>
    options.seedPlan!(tx, ctx.principal, id, fixture, now),
  );
}

/**
 * A seed in the scope's account, atomically: the same fixture for an id the account seeded before
 * changes nothing and succeeds again; another fixture (the fields that differ said), or an id that
 * is already taken, is INVALID_PARAMS, as is a fixture the entity's own checks refuse (their
 * message said). `write` answers false when the id is taken.
 */
export async function seed(
  scope: Scope,
  entityKey: Omit<sql.SeedKey, 'accountId'>,
  entity: string,
  write: (tx: Queryable, fixture: Record<string, unknown>) => Promise<boolean>,
): Promise<Answer> {
  const { ctx, params, account, now } = scope;
  const key = { ...entityKey, accountId: account.account_id };
  const fixture = (params['fixture'] as Record<string, unknown> | undefined) ?? {};
  return ctx.atomically(async (tx) => {
    await sql.lockSeed(tx, key);
    const before = await sql.seededFixture(tx, key);
    if (before) {
      if (canonicalize(before) === canonicalize(fixture))
        return { success: true, message: `${entity} was already seeded with this fixture; nothing changed.` };
      throw new Refusal(
        'INVALID_PARAMS',
        `${entity} was seeded with another fixture (${diverging(before, fixture).join(', ')} differ); seed another id, or change it with a force_* scenario.`,
      );
    }
    const written = await write(tx, fixture).catch((err: unknown) => {
      if (err instanceof AgentError)
        throw new Refusal(
          'INVALID_PARAMS',
          `The fixture is refused: ${err.code}${err.field ? ` at ${err.field}` : ''}: ${err.message}`,
        );
      throw err;
    });
    if (!written) throw new Refusal('INVALID_PARAMS', `${entity} already exists; seed another id.`);
    await sql.recordSeed(tx, key, fixture, now);
    return { success: true, message: `${entity} seeded in account ${account.account_id}.` };
  });
}

/** The fixture fields whose values differ between two seeds of one id. */
function diverging(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const differ = fields.filter((f) => canonicalize(before[f]) !== canonicalize(after[f])).map((f) => `fixture.${f}`);
  return differ.length > 0 ? differ : ['fixture'];
}
