import { DEFAULT_MAX_SKEW_SECONDS, MAX_WINDOW_SECONDS } from '../../../signing/profile.ts';

/** The longest a webhook signature stays valid: its window plus the verifier's skew. Retired keys stay published that long. */
export const signatureLifetimeSeconds = MAX_WINDOW_SECONDS + DEFAULT_MAX_SKEW_SECONDS;
