import { AgentError } from '../../../protocol/errors.ts';
import { ownerOf, publishedSchemas, type AgentTask } from '../../runtime/index.ts';
import * as sql from './sql.ts';

/**
 * `provide_performance_feedback` (media-buy/provide-performance-feedback-request.json): records
 * the buyer's measure of how one of its buys (or a package of it) performed over a period, for the
 * seller's optimisation. The buy must be the caller's (MEDIA_BUY_NOT_FOUND), the package one of
 * the buy's (PACKAGE_NOT_FOUND), and the period must end after it starts.
 */
export function providePerformanceFeedbackTask(): AgentTask {
  return {
    name: 'provide_performance_feedback',
    description:
      'Tell the seller how a media buy (or one package, or creative) performed: media_buy_id, measurement_period {start, end}, performance_index (1.0 = as expected), optional metric_type and feedback_source. Answers {success: true}.',
    input: {
      type: 'object',
      properties: {
        media_buy_id: { type: 'string' },
        package_id: { type: 'string' },
        creative_id: { type: 'string' },
        measurement_period: {
          type: 'object',
          properties: { start: { type: 'string' }, end: { type: 'string' } },
          required: ['start', 'end'],
        },
        performance_index: { type: 'number', minimum: 0 },
        metric_type: { type: 'string' },
        feedback_source: { type: 'string' },
        account: { type: 'object', description: 'core/account-ref.json (optional).' },
      },
      required: ['media_buy_id', 'measurement_period', 'performance_index'],
      additionalProperties: true,
    },
    ...publishedSchemas('media-buy/provide-performance-feedback'),
    mutates: true,
    async handler(args, ctx) {
      const mediaBuyId = args['media_buy_id'] as string;
      const buy = await sql.ownedBuy(ctx.db, ownerOf(ctx.principal), mediaBuyId);
      if (!buy)
        throw new AgentError('MEDIA_BUY_NOT_FOUND', `You have no media buy ${mediaBuyId} here.`, {
          field: 'media_buy_id',
        });
      const packageId = args['package_id'] as string | undefined;
      if (packageId !== undefined && !buy.package_ids.includes(packageId))
        throw new AgentError('PACKAGE_NOT_FOUND', `Media buy ${mediaBuyId} has no package ${packageId}.`, {
          field: 'package_id',
        });
      const period = args['measurement_period'] as { start: string; end: string };
      if (Date.parse(period.end) <= Date.parse(period.start))
        throw new AgentError('VALIDATION_ERROR', 'measurement_period.end must come after its start.', {
          field: 'measurement_period.end',
        });
      await sql.insertFeedback(ctx.db, {
        media_buy_id: mediaBuyId,
        package_id: packageId ?? null,
        creative_id: (args['creative_id'] as string | undefined) ?? null,
        period_start: period.start,
        period_end: period.end,
        performance_index: args['performance_index'] as number,
        metric_type: (args['metric_type'] as string | undefined) ?? 'overall_performance',
        feedback_source: (args['feedback_source'] as string | undefined) ?? 'buyer_attribution',
        received_at: ctx.clock.now(),
      });
      return { success: true, sandbox: buy.sandbox };
    },
  };
}
