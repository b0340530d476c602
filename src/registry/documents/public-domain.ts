import { checkHost } from '../../net/destination.ts';
import { FetchError } from '../../net/fetch-error.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { ApError } from '../../protocol/errors.ts';

/**
 * Refuses (400, naming the field) a domain that resolves to a private or reserved address, or not
 * at all, before anything is fetched or queued for it. The fetch client checks every connection
 * anyway; this turns a hostile or mistyped domain into the caller's error rather than a report.
 */
export async function requirePublicDomain(
  domain: string,
  fetcher: SafeFetch,
  at: { in: string; field: string },
): Promise<void> {
  try {
    await checkHost(domain, fetcher.policy);
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    const details = [{ in: at.in, field: at.field, message: err.message }];
    throw new ApError(
      err.reason === 'forbidden_address' ? 'domain_not_public' : 'domain_unresolvable',
      `${err.message}.`,
      { details },
    );
  }
}
