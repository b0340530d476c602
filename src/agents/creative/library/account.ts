import canonicalize from 'canonicalize';

/**
 * The library a request's account reference (core/account-ref.json, already checked against it)
 * names within its owner's: this agent opens no accounts, so the reference itself is the name, as
 * canonical JSON of its `account_id`, or of its natural key (brand domain and brand_id, operator,
 * sandbox; absent sandbox meaning production, the schema's default). The same reference always
 * names the same library; an account_id and a natural key never name the same one.
 */
export function accountKey(ref: Record<string, unknown>): string {
  if (typeof ref['account_id'] === 'string') return canonicalize({ account_id: ref['account_id'] })!;
  const brand = ref['brand'] as { domain: string; brand_id?: string };
  return canonicalize({
    brand: { domain: brand.domain, ...(brand.brand_id === undefined ? {} : { brand_id: brand.brand_id }) },
    operator: ref['operator'],
    sandbox: ref['sandbox'] === true,
  })!;
}

/** Whether a reference names a sandbox account: the answer says so (`sandbox`). */
export const isSandbox = (ref: unknown) => (ref as { sandbox?: unknown } | undefined)?.sandbox === true;
