import type { Database } from '../../src/db/database.ts';
import type { Role } from '../../src/auth/accounts/service.ts';
import { createKey } from '../../src/auth/api-keys/service.ts';

/** A fresh API key of the organization `slug`, as its plaintext. */
export async function createApiKeyFor(db: Database, slug: string, role: Role = 'member'): Promise<string> {
  return (await createKey(db, { organizationSlug: slug, name: `test key ${Date.now()}`, role })).key;
}
