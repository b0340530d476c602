/** Seconds to wait before a retry as the protocol bounds them (core/error.json: 1 to 3600); undefined when not a number. */
export function clampRetryAfter(seconds: number): number | undefined {
  return Number.isFinite(seconds) ? Math.min(3600, Math.max(1, Math.ceil(seconds))) : undefined;
}
