import { integer, settings, type Loaded } from '../../settings.ts';

export const ownershipSettings = settings({
  /** A proof of domain control lets the same organization save revisions for this many days. */
  ownershipProofDays: {
    env: 'AP_OWNERSHIP_PROOF_DAYS',
    default: '90',
    meaning: 'days a proof of domain control covers later saves by the same organization',
    parse: integer(1, 3650),
  },
});

export type OwnershipSettings = Loaded<typeof ownershipSettings>;
