import type { Principal } from '../../auth/index.ts';

/**
 * The registry's operator at the command line (`ap agents`), acting for `org` when enrolling, for
 * the registry when removing: exempt from ownership proofs and owner checks, as registry admins are.
 */
export function operatorFor(org: { id: string; slug: string } | undefined): Principal {
  return {
    kind: 'credential',
    subject: 'ap-cli/operator',
    displayName: 'the registry operator (ap agents)',
    organization: {
      organizationId: org?.id ?? '',
      slug: org?.slug ?? 'registry-operator',
      role: 'admin',
      apiTier: true,
      registryAdmin: true,
    },
  };
}
