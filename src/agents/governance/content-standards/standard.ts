import type { Artifact } from './artifact-content.ts';

/** governance/policy-entry.json, as a standard holds it. */
export interface PolicyEntry {
  policy_id: string;
  enforcement: 'must' | 'should' | 'may';
  policy: string;
  source?: 'registry' | 'inline';
  name?: string;
  policy_categories?: string[];
  channels?: string[];
  effective_date?: string;
  sunset_date?: string;
  [field: string]: unknown;
}

/** A URL reference among a create request's calibration exemplars. */
export interface UrlExemplar {
  type: 'url';
  value: string;
  language?: string;
}

export type Exemplar = Artifact | UrlExemplar;

/** Where a standard applies (create-content-standards-request.json `scope`). */
export interface Scope {
  countries_all?: string[];
  channels_any?: string[];
  languages_any?: string[];
  description?: string;
}

/** What a standard is, as saved: its bespoke policies and the registry's it named, resolved when saved. */
export interface StandardsDefinition {
  name?: string;
  scope: Scope;
  policies: PolicyEntry[];
  registry_policy_ids?: string[];
  calibration_exemplars?: { pass?: Exemplar[]; fail?: Exemplar[] };
}

const isUrl = (e: Exemplar): e is UrlExemplar => (e as UrlExemplar).type === 'url';

/**
 * A saved standard as content-standards/content-standards.json shows it: its scope's fields at
 * the top, its policies (the registry's among them, `source: registry`), and the exemplars that
 * are full artifacts (URL references are kept for matching, but the shape has no room for them).
 */
export function wireStandards(id: string, definition: StandardsDefinition): Record<string, unknown> {
  const { scope, calibration_exemplars: exemplars } = definition;
  const artifacts = (list: Exemplar[] | undefined) => (list ?? []).filter((e): e is Artifact => !isUrl(e));
  const pass = artifacts(exemplars?.pass);
  const fail = artifacts(exemplars?.fail);
  return {
    standards_id: id,
    ...(definition.name ? { name: definition.name } : scope.description ? { name: scope.description } : {}),
    ...(scope.countries_all ? { countries_all: scope.countries_all } : {}),
    ...(scope.channels_any ? { channels_any: scope.channels_any } : {}),
    ...(scope.languages_any ? { languages_any: scope.languages_any } : {}),
    ...(definition.policies.length > 0 ? { policies: definition.policies } : {}),
    ...(pass.length + fail.length > 0
      ? { calibration_exemplars: { ...(pass.length ? { pass } : {}), ...(fail.length ? { fail } : {}) } }
      : {}),
  };
}

/** The exemplar the artifact is, if any: the same artifact of the same property, or the same page. */
export function exemplarVerdict(
  definition: StandardsDefinition,
  artifact: Artifact,
): { verdict: 'pass' | 'fail'; exemplar: string } | undefined {
  for (const verdict of ['fail', 'pass'] as const)
    for (const exemplar of definition.calibration_exemplars?.[verdict] ?? []) {
      if (isUrl(exemplar)) {
        if (artifact.url !== undefined && artifact.url === exemplar.value) return { verdict, exemplar: exemplar.value };
      } else if (exemplar.property_rid === artifact.property_rid && exemplar.artifact_id === artifact.artifact_id)
        return { verdict, exemplar: `${exemplar.property_rid}/${exemplar.artifact_id}` };
    }
  return undefined;
}
