/**
 * Wire schemas of the agent catalog (spec sections 1, 2 and 4; the list entry's other fields are
 * ours): one file per route group (named as in routes/), over the fields they share (fields.ts)
 * and the catalog entry every listing answers (catalog-agent.ts).
 */

export { AgentEntry } from './catalog-agent.ts';
export { AgentUrlQuery, ChangeBody, EnrollBody, Removed } from './enrollment.ts';
export { AgentList, ListQuery } from './list-agents.ts';
export { OperatorAgent, OperatorAnswer, OperatorQuery, operatorScopes } from './operator.ts';
export { SearchPageSchema, SearchQueryString, SearchResult } from './search-agents.ts';
