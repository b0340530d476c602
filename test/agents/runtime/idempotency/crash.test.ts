import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import type { Tenant } from '../../../../src/agents/runtime/index.ts';
import type { Database } from '../../../../src/db/database.ts';
import { loadMigrations } from '../../../../src/db/migrate.ts';
import { buildApp } from '../../../../src/app/build-app.ts';
import { mcpClient } from '../../../support/agents.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import { testConfig } from '../../../support/server.ts';

/** Where the process "dies" on the next mutating call: after the handler ran but before the commit, or after the commit but before the reply. */
type CrashPoint = 'before-commit' | 'before-reply' | undefined;

/** A mutating task whose effect is a row, so a test can count how often it really happened. */
const tenant: Tenant = {
  name: 'crash',
  path: '/crash',
  description: 'A task with a visible effect.',
  protocols: ['media_buy'],
  tasks: [
    {
      name: 'make_widget',
      description: 'Makes a widget (one row).',
      input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      output: { type: 'object', properties: { widget_id: { type: 'string' } }, required: ['widget_id'] },
      mutates: true,
      handler: async (args, ctx) => {
        const id = randomUUID();
        await ctx.db.query('insert into crash_widgets (id, name) values ($1, $2)', [id, args['name']]);
        return { widget_id: id };
      },
    },
  ],
};

eachEngine('a mutating task interrupted between its handler and its reply', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let client: Client;
  let crash: CrashPoint;

  before(async () => {
    db = await engine.openMigrated();
    await db.exec('create table crash_widgets (id uuid primary key, name text not null)');
    // The process as the runtime sees it: the transaction fails where a kill would cut it.
    const dying: Database = {
      ...db,
      transaction: async (fn) => {
        const point = crash;
        const result = await db.transaction(async (tx) => {
          const value = await fn(tx);
          if (point === 'before-commit') {
            crash = undefined;
            throw new Error('killed after the handler, before the commit');
          }
          return value;
        });
        if (point === 'before-reply') {
          crash = undefined;
          throw new Error('killed after the commit, before the reply');
        }
        return result;
      },
    };
    app = await buildApp({ config: testConfig(), db: dying, migrations: await loadMigrations(), tenants: [tenant] });
    await app.listen({ port: 0, host: '127.0.0.1' });
    client = await mcpClient(`http://127.0.0.1:${(app.server.address() as { port: number }).port}`, '/crash');
  });
  after(async () => {
    await client.close();
    await app.close(); // closes the database too
  });

  const make = async (key: string, name: string) =>
    JSON.parse(
      ((await client.callTool({ name: 'make_widget', arguments: { idempotency_key: key, name } })) as Json).content[0]
        .text,
    ) as Json;
  const widgets = async (name: string) =>
    (await db.query<{ id: string }>('select id from crash_widgets where name = $1', [name])).map((r) => r.id);

  it('killed before the commit: neither the effect nor the record survives, and the retry runs it once', async () => {
    const key = randomUUID();
    const name = randomUUID();
    crash = 'before-commit';
    assert.equal((await make(key, name)).code, 'INTERNAL_ERROR');
    assert.deepEqual(await widgets(name), []);

    const retried = await make(key, name);
    assert.equal(retried.replayed, false);
    assert.deepEqual(await widgets(name), [retried.widget_id]);
    const again = await make(key, name);
    assert.equal(again.replayed, true);
    assert.equal(again.widget_id, retried.widget_id);
    assert.deepEqual(await widgets(name), [retried.widget_id]);
  });

  it('killed after the commit: the effect exists exactly once and the retry replays it', async () => {
    const key = randomUUID();
    const name = randomUUID();
    crash = 'before-reply';
    assert.equal((await make(key, name)).code, 'INTERNAL_ERROR');
    const made = await widgets(name);
    assert.equal(made.length, 1);

    const retried = await make(key, name);
    assert.equal(retried.replayed, true);
    assert.equal(retried.widget_id, made[0]);
    assert.deepEqual(await widgets(name), made);
  });
});
