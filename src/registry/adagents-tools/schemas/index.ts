/**
 * Wire schemas of the adagents.json tools (spec section 4: `POST /api/adagents/validate`,
 * `POST /api/adagents/create`, `GET /api/manifest-refs/lookup`, `GET /api/public/validate-publisher`),
 * whose bodies the spec does not show. Findings name their place as a JSON Pointer.
 * One file per route, named as in routes/, over what they share (common.ts).
 */

export { Finding } from './common.ts';
export { CreateBody, CreateQuery, Created } from './create.ts';
export { ManifestRefs, ManifestRefsQuery, manifestTypes } from './manifest-refs-lookup.ts';
export { ValidateBody, ValidationReport } from './validate.ts';
export { DomainQuery, PublisherReport } from './validate-publisher.ts';
