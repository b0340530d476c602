import { DEFAULT_MAX_SKEW_SECONDS, MAX_WINDOW_SECONDS } from '../../../signing/profile.ts';

/** The longest a webhook signature stays valid: its window plus the verifier's skew. Retired keys stay published that long. */
export const signatureLifetimeSeconds = MAX_WINDOW_SECONDS + DEFAULT_MAX_SKEW_SECONDS;

/**
 * The longest a governance approval stays valid (an execution-phase token; intent tokens live 15
 * minutes). Retired governance keys stay published that long, so a seller can still verify it.
 */
export const governanceTokenLifetimeSeconds = 24 * 3600;
