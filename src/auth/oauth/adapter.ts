import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/database.ts';
import { jsonFault } from '../../protocol/json-faults.ts';
import * as sql from './sql.ts';

/** What a client's metadata must pass before it is stored; throws the provider's error to refuse. */
export type ClientCheck = (metadata: AdapterPayload) => Promise<void>;

/**
 * oidc-provider's storage, in our database: a flow may start on one instance and finish on
 * another, and a code consumed anywhere is consumed everywhere. Every client the provider stores
 * (registration, and update were it on) passes `checkClient` first: the one point, and an
 * asynchronous one, that each way into storage goes through.
 */
export function databaseAdapter(
  db: Database,
  checkClient: ClientCheck = async () => {},
): new (model: string) => Adapter {
  return class DatabaseAdapter implements Adapter {
    readonly model: string;
    constructor(model: string) {
      this.model = model;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      // The provider's requests never pass our request hooks; refuse here what jsonb cannot hold.
      const found = jsonFault(payload);
      if (found) {
        const message = `${found.path.join('.') || 'a value'} ${found.problem}`;
        throw this.model === 'Client' ? new errors.InvalidClientMetadata(message) : new errors.InvalidRequest(message);
      }
      if (this.model === 'Client') await checkClient(payload);
      await sql.upsertRecord(db, this.model, id, payload as Record<string, unknown>, expiresIn || undefined);
    }
    // The provider's routes bypass the app's NUL hook; an id PostgreSQL would refuse finds nothing.
    async find(id: string): Promise<AdapterPayload | undefined> {
      return id.includes('\u0000') ? undefined : toPayload(await sql.findRecord(db, this.model, 'id', id));
    }
    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return uid.includes('\u0000') ? undefined : toPayload(await sql.findRecord(db, this.model, 'uid', uid));
    }
    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return userCode.includes('\u0000')
        ? undefined
        : toPayload(await sql.findRecord(db, this.model, 'user_code', userCode));
    }
    async consume(id: string): Promise<void> {
      // The provider checks `consumed` and then consumes; two exchanges of one code at the same
      // moment would both pass that check. Only one wins this update; the other is a replay.
      if (await sql.consumeRecord(db, this.model, id)) return;
      const record = await sql.findRecord(db, this.model, 'id', id);
      const grantId = record?.payload.grantId;
      if (typeof grantId === 'string') {
        await sql.destroyGrant(db, grantId);
        await sql.destroyRecord(db, 'Grant', grantId);
      }
      throw new errors.InvalidGrant(`${this.model} already consumed`);
    }
    async destroy(id: string): Promise<void> {
      await sql.destroyRecord(db, this.model, id);
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      await sql.destroyGrant(db, grantId);
    }
  };
}

function toPayload(record: sql.OAuthRecord | undefined): AdapterPayload | undefined {
  if (!record) return undefined;
  // The provider reads `consumed` as seconds since the epoch.
  return record.consumed_at
    ? { ...record.payload, consumed: Math.floor(record.consumed_at.getTime() / 1000) }
    : (record.payload as AdapterPayload);
}
