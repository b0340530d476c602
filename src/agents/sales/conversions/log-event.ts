import { AgentError } from '../../../protocol/errors.ts';
import { objectsInput, ownerOf, publishedSchemas, type AgentTask } from '../../runtime/index.ts';
import * as sql from './sql.ts';

/** How far ahead of the seller's clock an event may be stamped (clock skew), no further. */
const futureSkewMs = 5 * 60 * 1000;

interface Event {
  event_id: string;
  event_type: string;
  event_time: string;
  user_match?: unknown;
  custom_event_name?: string;
  [more: string]: unknown;
}

/**
 * `log_event` (media-buy/log-event-request.json): records conversion events for one of the
 * caller's event sources (from sync_event_sources; REFERENCE_NOT_FOUND otherwise; the request's
 * `account` chooses when several of its accounts have a source of that id). Each event is
 * checked on its own: a type the source does not take, or a time in the future, is a partial
 * failure and the rest are recorded. An event_id already logged on the source is not counted
 * again (warned). With `test_event_code` the events are checked and counted but not recorded.
 * `match_quality` is the share of processed events that carry user_match identifiers.
 */
export function logEventTask(): AgentTask {
  return {
    name: 'log_event',
    description:
      'Log conversion events (core/event.json: event_id, event_type, event_time, user_match...) for an event source from sync_event_sources. Answers events_received, events_processed and partial_failures; an event_id already logged is not counted twice. test_event_code: checked, not recorded.',
    input: {
      type: 'object',
      properties: {
        event_source_id: { type: 'string' },
        events: objectsInput(
          10000,
          {
            event_id: { type: 'string' },
            event_type: { type: 'string' },
            event_time: { type: 'string' },
          },
          ['event_id', 'event_type', 'event_time'],
        ),
        test_event_code: { type: 'string' },
        account: {
          type: 'object',
          description: 'core/account-ref.json: only needed when several of your accounts have a source of this id.',
        },
      },
      required: ['event_source_id', 'events'],
      additionalProperties: true,
    },
    ...publishedSchemas('media-buy/log-event'),
    mutates: true,
    async handler(args, ctx) {
      const id = args['event_source_id'] as string;
      const candidates = (await sql.ownedEventSources(ctx.db, ownerOf(ctx.principal), id)).filter(
        (r) => !ctx.account || r.account_id === ctx.account.account_id,
      );
      if (candidates.length === 0) {
        throw new AgentError(
          'REFERENCE_NOT_FOUND',
          `You have no event source ${id}${ctx.account ? ` on account ${ctx.account.account_id}` : ''}; declare it with sync_event_sources.`,
          { field: 'event_source_id' },
        );
      }
      if (candidates.length > 1) {
        throw new AgentError(
          'ACCOUNT_AMBIGUOUS',
          `Several of your accounts have an event source ${id}; name the account.`,
          { field: 'account', suggestion: 'Add account {account_id} to the request.' },
        );
      }
      const source = candidates[0]!;
      const now = ctx.clock.now();
      const events = args['events'] as Event[];
      const accepted = source.source.event_types && new Set(source.source.event_types);
      const failures: { event_id: string; code: string; message: string }[] = [];
      const ok = events.filter((e) => {
        const problem =
          accepted && !accepted.has(e.event_type)
            ? `Event source ${id} takes ${[...accepted].join(', ')}, not ${e.event_type}.`
            : Date.parse(e.event_time) > now.getTime() + futureSkewMs
              ? `event_time ${e.event_time} is in the future.`
              : undefined;
        if (problem) failures.push({ event_id: e.event_id, code: 'VALIDATION_ERROR', message: problem });
        return !problem;
      });
      const warnings: string[] = [];
      // Sent twice in one batch is sent twice: counted once, as across batches.
      const ids = new Set<string>();
      const firsts = ok.filter((e) => !ids.has(e.event_id) && ids.add(e.event_id));
      let processed = firsts;
      if (args['test_event_code'] === undefined) {
        const fresh = new Set(
          await sql.insertEvents(
            ctx.db,
            source.account_id,
            id,
            firsts.map((e) => ({ event_id: e.event_id, event_type: e.event_type, event_time: e.event_time, event: e })),
            now,
          ),
        );
        processed = firsts.filter((e) => fresh.has(e.event_id));
        const repeats = ok.length - processed.length;
        if (repeats > 0)
          warnings.push(
            `${repeats} event${repeats === 1 ? ' was' : 's were'} already logged (same event_id) and not counted again.`,
          );
      } else warnings.push('test_event_code: the events were checked and not recorded.');
      const matched = processed.filter((e) => e.user_match !== undefined).length;
      return {
        events_received: events.length,
        events_processed: processed.length,
        ...(failures.length > 0 ? { partial_failures: failures } : {}),
        ...(warnings.length > 0 ? { warnings } : {}),
        ...(processed.length > 0 ? { match_quality: matched / processed.length } : {}),
        sandbox: source.sandbox,
      };
    },
  };
}
