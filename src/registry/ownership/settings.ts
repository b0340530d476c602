import { integer, reader, type Env, type Setting } from '../../settings.ts';

export interface OwnershipSettings {
  /** A proof of domain control lets the same organization save revisions for this many days. */
  ownershipProofDays: number;
}

export const ownershipSettings = {
  AP_OWNERSHIP_PROOF_DAYS: {
    default: '90',
    meaning: 'days a proof of domain control covers later saves by the same organization',
  },
} as const satisfies Record<string, Setting>;

export function loadOwnershipSettings(env: Env): OwnershipSettings {
  const get = reader(ownershipSettings, env);
  return { ownershipProofDays: integer('AP_OWNERSHIP_PROOF_DAYS', get('AP_OWNERSHIP_PROOF_DAYS'), 1, 3650) };
}
