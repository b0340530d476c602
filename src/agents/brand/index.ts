import { type Tenant, type TenantMount } from '../runtime/index.ts';
import { getBrandIdentityTask, type BrandRecords } from './identity/get-brand-identity.ts';

export type { BrandRecords } from './identity/get-brand-identity.ts';

export interface BrandAgentOptions extends TenantMount {
  /** The registry's brand records, and who has rights to a brand. */
  brands: BrandRecords;
}

/**
 * The brand agent: brand identity as the deployment's registry records it, so its answers are the
 * registry's resolved truth for every brand the registry knows.
 */
export function brandAgent({ path = '/brand', credentials, brands }: BrandAgentOptions): Tenant {
  return {
    name: 'brand',
    path,
    description:
      'Brand agent: brand identity (house, names, logos, colours, fonts, tone) from the registry’s own brand records.',
    protocols: ['brand'],
    specialisms: [],
    credentials,
    capabilities: () => ({
      brand: {
        rights: false,
        description: 'Brand identity from the registry’s records; rights licensing is not offered yet.',
      },
    }),
    tasks: [getBrandIdentityTask(brands)],
  };
}
