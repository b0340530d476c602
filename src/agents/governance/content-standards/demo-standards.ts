import type { TenantPass } from '../../runtime/index.ts';
import * as sql from './sql.ts';
import type { StandardsDefinition } from './standard.ts';

/**
 * The content standards a newcomer with the public test credential can calibrate against at once
 * (`standards_id: demo_brand_safety`): the documentation's example brand-safety policies, for
 * English content in the US and Canada.
 */
export const demoStandards: ReadonlyArray<{ id: string; definition: StandardsDefinition }> = [
  {
    id: 'demo_brand_safety',
    definition: {
      name: 'Acme Outdoor brand safety',
      scope: { languages_any: ['en'], countries_all: ['US', 'CA'], description: 'Acme Outdoor brand safety' },
      policies: [
        {
          policy_id: 'no_violence',
          policy_categories: ['brand_safety'],
          enforcement: 'must',
          policy: 'Avoid content depicting violence, weapons, or physical aggression.',
          source: 'inline',
        },
        {
          policy_id: 'no_adult_themes',
          policy_categories: ['brand_safety'],
          enforcement: 'must',
          policy: 'Avoid adult, sexual, or mature themes.',
          source: 'inline',
        },
        {
          policy_id: 'no_controversial_politics',
          policy_categories: ['brand_suitability'],
          enforcement: 'should',
          policy: 'Avoid controversial political content.',
          source: 'inline',
        },
      ],
    },
  },
];

/** Keeps the demo standards present for `owner` (the public test credential's), hourly and at start. */
export function demoStandardsPass(owner: string): TenantPass {
  return {
    name: 'demo-standards',
    intervalMs: 3_600_000,
    async run({ db, clock }) {
      for (const { id, definition } of demoStandards)
        if (!(await sql.standardsOf(db, owner, id)))
          await sql.insertStandards(db, { standards_id: id, owner, definition, created_at: clock.now() });
    },
  };
}
