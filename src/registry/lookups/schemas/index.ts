import { CheckResponse } from './check.ts';
import { AuthorizationResult, Declaration, GrantSummary, PropertySummary } from './records.ts';

/**
 * Wire schemas of the lookups and authorization checks (spec section 4; shapes from the 3.0.6
 * schemas): one file per route (named as in routes/), over the shared request fields
 * (parameters.ts), the records answers name by `$id` (records.ts) and the selectors (selector.ts).
 */

export { BulkCheckBody, BulkCheckResponse, CheckQuery, CheckResponse, maxBulkChecks } from './check.ts';
export { ExpandBody, ExpandResponse } from './expand.ts';
export { AgentDomains, AgentDomainsQuery } from './lookup-agent-domains.ts';
export { DomainLookup } from './lookup-domain.ts';
export { PropertyLookup, PropertyLookupQuery } from './lookup-property.ts';
export { ProductAuthorization, ProductAuthorizationBody } from './product-authorization.ts';
export { AuthorizationResult, Declaration, GrantSummary, PropertySummary } from './records.ts';
export { maxSelectors, Selector } from './selector.ts';

/** Registered once with the app, so every route's schema may name them by `$id`. */
export const lookupSchemas = [AuthorizationResult, PropertySummary, GrantSummary, Declaration, CheckResponse];
