import { normalizeDomain } from '../protocol/domain.ts';
import { ApError, type ErrorCode } from '../protocol/errors.ts';

/**
 * Normalizes every domain of a bulk request, keyed by the domain as given. One bad domain fails
 * the whole request with every bad one named, so the caller fixes them in one go.
 */
export function normalizeAll(domains: string[], field = 'domains'): Map<string, string> {
  const normalized = new Map<string, string>();
  const issues: Array<{ in: string; field: string; message: string }> = [];
  const codes = new Set<ErrorCode>();
  domains.forEach((given, i) => {
    try {
      normalized.set(given, normalizeDomain(given, { field: `${field}.${i}`, in: 'body' }));
    } catch (err) {
      if (!(err instanceof ApError)) throw err;
      codes.add(err.code);
      issues.push({ in: 'body', field: `${field}.${i}`, message: err.message });
    }
  });
  if (issues.length > 0) {
    // One reason for every bad domain keeps its own code (e.g. domain_mixed_script); several, the general one.
    const code = codes.size === 1 ? [...codes][0]! : 'invalid_domain';
    throw new ApError(code, `${issues.length} of the domains are not valid: ${issues[0]!.message}`, {
      details: issues,
    });
  }
  return normalized;
}
