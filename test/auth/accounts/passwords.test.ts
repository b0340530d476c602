import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalUser, signIn } from '../../../src/auth/accounts/service.ts';
import { decoyHash, hashPassword, verifyPassword } from '../../../src/auth/accounts/passwords.ts';
import type { Database } from '../../../src/db/database.ts';
import { engines } from '../../support/engines.ts';

// The other tests seed their users with cheap hashes (see seedUser); these use the real cost.
const OWASP_HASH = /^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/;

describe('passwords', () => {
  it("hashes at OWASP's cost, the parameters and salt in the hash, and verifies only the password", async () => {
    const hash = await hashPassword('correct horse battery staple');
    assert.match(hash, OWASP_HASH);
    assert.equal(await verifyPassword('correct horse battery staple', hash), true);
    assert.equal(await verifyPassword('correct horse battery stapler', hash), false);
  });

  it('keeps a decoy at the same cost that no password matches', async () => {
    assert.match(decoyHash, OWASP_HASH);
    assert.equal(await verifyPassword('', decoyHash), false);
  });
});

describe('[pglite] local users', () => {
  let db: Database;
  before(async () => {
    db = await engines.find((e) => e.name === 'pglite')!.openMigrated();
  });
  after(() => db.close());

  it('stores a hash of the real cost that signing in accepts, with the right password only', async () => {
    const user = await createLocalUser(db, { email: 'ada@example.test', password: 'correct horse battery staple' });
    assert.match(user.password_hash ?? '', OWASP_HASH);
    assert.equal((await signIn(db, 'ada@example.test', 'correct horse battery staple'))?.id, user.id);
    assert.equal(await signIn(db, 'ada@example.test', 'correct horse battery stapler'), undefined);
    assert.equal(await signIn(db, 'nobody@example.test', 'correct horse battery staple'), undefined);
  });
});
