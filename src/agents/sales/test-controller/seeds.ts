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
  return seed(scope, 'creative', 'Creative', id, (tx, fixture) => seedCreative(tx, { owner, account, creativeId: id, fixture, formats: options.formats(), by: actor, at: now }));
}

/** seed_media_buy: a buy of the sandbox account under the caller's media_buy_id (see media-buys' seedMediaBuy). */
export function seedMediaBuyScenario(scope: Scope): Promise<Answer> {
  const { params, account, owner, now, options } = scope;
  const id = params['media_buy_id'] as string;
  return seed(scope, 'media_buy', 'Media buy', id, (tx, fixture) => seedMediaBuy(tx, { owner, account, mediaBuyId: id, fixture, products: options.products(), actor, now }));
}

/**
 * A seed, atomically: the same fixture for an id the account seeded before changes nothing and
 * succeeds again; another fixture, or an id that is already taken, is INVALID_PARAMS, as is a
 * fixture the entity's own checks refuse (their message said).
 */
async function seed(scope: Scope, kind: sql.SeedKind, name: string, id: string, write: (tx: Queryable, fixture: Record<string, unknown>) => Promise<boolean>): Promise<Answer> {
  const { ctx, params, account, now } = scope;
  const fixture = (params['fixture'] as Record<string, unknown> | undefined) ?? {};
  const entity = `${name} ${id}`;
  return ctx.atomically(async (tx) => {
    await sql.lockSeed(tx, kind, account.account_id, id);
    const before = await sql.seededFixture(tx, kind, account.account_id, id);
    if (before) {
      if (canonicalize(before) === canonicalize(fixture)) return { success: true, message: `${entity} was already seeded with this fixture; nothing changed.` };
      throw new Refusal('INVALID_PARAMS', `${entity} was seeded with another fixture; seed another id.`);
    }
    const written = await write(tx, fixture).catch((err: unknown) => {
      if (err instanceof AgentError) throw new Refusal('INVALID_PARAMS', `The fixture is refused: ${err.code}${err.field ? ` at ${err.field}` : ''}: ${err.message}`);
      throw err;
    });
    if (!written) throw new Refusal('INVALID_PARAMS', `${entity} already exists; seed another id.`);
    await sql.recordSeed(tx, kind, account.account_id, id, fixture, now);
    return { success: true, message: `${entity} seeded in account ${account.account_id}.` };
  });
}
