import type { Queryable } from '../../../db/database.ts';
import { idInput, ownerOf, publishedSchemas, type AgentTask, type TaskArguments } from '../../runtime/index.ts';
import type { Artifact } from './artifact-content.ts';
import type { Placement } from './evaluate.ts';
import { judgeArtifact, type PageBudget } from './judge-artifact.ts';
import { pagesPerCall, type PageReader, type ReadPage } from './pages.ts';
import { rulesOf } from './rules.ts';
import { ownStandards } from './standards-tasks.ts';

const artifactInput = {
  type: 'object',
  description:
    'content-standards/artifact.json: {property_rid, artifact_id, assets: [{type: text, content}…], url?, metadata?}. An artifact with no text of its own is judged on its page (url), read here.',
};

/** The reader's pages as of the call's time. */
const readerAt = (pages: PageReader | undefined, now: Date): ReadPage | undefined =>
  pages && ((url) => pages.read(url, now.getTime()));

/** The day a date falls on (policies' effective and sunset dates are days). */
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The caller's standard ready to judge artifacts, its rules compiled once, reading pages through
 * `read`; REFERENCE_NOT_FOUND for another's, as `ownStandards` answers.
 */
async function standardJudge(db: Queryable, owner: string, standardsId: string, read: ReadPage | undefined) {
  const row = await ownStandards(db, owner, standardsId);
  const rules = rulesOf(row.definition.policies);
  return (artifact: Artifact, placement: Placement, budget: PageBudget, only?: ReadonlySet<string>) =>
    judgeArtifact(row.definition, rules, artifact, placement, read, budget, only);
}

/**
 * `calibrate_content`: how this agent judges one artifact against a standard, policy by policy,
 * each finding saying which phrase of the policy it found and where, so a seller can align its
 * own model with the verdicts.
 */
export function calibrateContentTask(
  pages: PageReader | undefined,
): AgentTask<{ standards_id: string; artifact: Artifact } & TaskArguments> {
  return {
    name: 'calibrate_content',
    description:
      'Evaluate one artifact against your content standards as this agent would during delivery: the verdict (pass/fail), and for each policy its status and the reason (the phrase found and where).',
    input: {
      type: 'object',
      properties: { standards_id: idInput, artifact: artifactInput },
      required: ['standards_id', 'artifact'],
      additionalProperties: true,
    },
    ...publishedSchemas('content-standards/calibrate-content'),
    mutates: true,
    async handler(args, ctx) {
      const read = readerAt(pages, ctx.clock.now());
      const judge = await standardJudge(ctx.db, ownerOf(ctx.principal), args.standards_id, read);
      return judge(args.artifact, { day: dayOf(ctx.clock.now()) }, { left: 1 });
    },
  };
}

interface DeliveryRecord {
  record_id: string;
  artifact: Artifact;
  media_buy_id?: string;
  country?: string;
  channel?: string;
  timestamp?: string;
}

/**
 * `validate_content_delivery`: where ads ran, record by record, against a standard. Up to 10,000
 * records; the standard's rules are read once, and at most 50 distinct pages are read per call
 * (records naming others are judged on what they declare, their features unevaluated).
 */
export function validateContentDeliveryTask(
  pages: PageReader | undefined,
): AgentTask<
  { standards_id: string; records: DeliveryRecord[]; feature_ids?: string[]; include_passed?: boolean } & TaskArguments
> {
  return {
    name: 'validate_content_delivery',
    description:
      'Validate delivery records ({record_id, artifact, country?, channel?}, up to 10,000) against your content standards: each record’s verdict and its features’ reasons, and a summary. feature_ids narrows the policies applied.',
    input: {
      type: 'object',
      properties: {
        standards_id: idInput,
        records: { type: 'array', minItems: 1, maxItems: 10_000, items: { type: 'object' } },
        feature_ids: { type: 'array', minItems: 1, maxItems: 200, items: idInput },
        include_passed: { type: 'boolean' },
      },
      required: ['standards_id', 'records'],
      additionalProperties: true,
    },
    ...publishedSchemas('content-standards/validate-content-delivery'),
    mutates: false,
    async handler(args, ctx) {
      const read = readerAt(pages, ctx.clock.now());
      const judge = await standardJudge(ctx.db, ownerOf(ctx.principal), args.standards_id, read);
      const only = args.feature_ids ? new Set(args.feature_ids) : undefined;
      const budget = { left: pagesPerCall };
      const today = dayOf(ctx.clock.now());
      const results = [];
      let failed = 0;
      for (const record of args.records) {
        const placement = {
          country: record.country,
          channel: record.channel,
          day:
            record.timestamp && !Number.isNaN(Date.parse(record.timestamp)) ? dayOf(new Date(record.timestamp)) : today,
        };
        const { verdict, features } = await judge(record.artifact, placement, budget, only);
        if (verdict === 'fail') failed++;
        if (verdict === 'pass' && args.include_passed === false) continue;
        results.push({ record_id: record.record_id, verdict, features });
      }
      return {
        summary: {
          total_records: args.records.length,
          passed_records: args.records.length - failed,
          failed_records: failed,
        },
        results,
      };
    },
  };
}
