import type { Principal } from '../../../src/auth/principal.ts';

/** The principal of a held save in tests that need no real credential. */
export const submitter: Principal = { kind: 'api_key', subject: 'key-1', displayName: 'Submitter key' };
