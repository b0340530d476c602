import canonicalize from 'canonicalize';
import { AgentError } from '../../../protocol/errors.ts';
import { objectsInput, accountRefInput, publishedSchemas, type AgentTask } from '../../runtime/index.ts';
import { requireActiveAccount } from '../accounts/index.ts';
import * as sql from './sql.ts';

type Source = sql.EventSourceRow['source'];

/** How a buyer-managed source is set up here: events come server to server, by log_event. */
const setup = {
  snippet_type: 'server_only',
  instructions:
    'No tag to place: send conversions with log_event {event_source_id, events}, each event once by its event_id (a repeat is not counted again).',
} as const;

/**
 * `sync_event_sources` (media-buy/sync-event-sources-request.json; sales-catalog-driven's
 * conversion tracking): upserts the account's event sources by event_source_id (created,
 * updated, unchanged), deletes those not sent with `delete_missing`, and without
 * `event_sources` lists them. Every source is buyer-managed and server-only (log_event); its
 * health is not scored, so none is claimed.
 */
export function syncEventSourcesTask(): AgentTask {
  return {
    name: 'sync_event_sources',
    description:
      'Declare the account’s conversion event sources (upsert by event_source_id: name, event_types, allowed_domains); events are then sent with log_event. Without event_sources: lists them. delete_missing removes the others.',
    input: {
      type: 'object',
      properties: {
        account: accountRefInput,
        event_sources: objectsInput(
          100,
          {
            event_source_id: { type: 'string' },
            name: { type: 'string' },
            event_types: {
              type: 'array',
              items: { type: 'string' },
              description: 'enums/event-type.json; all when absent.',
            },
            allowed_domains: { type: 'array', items: { type: 'string' } },
          },
          ['event_source_id'],
        ),
        delete_missing: { type: 'boolean' },
      },
      required: ['account'],
      additionalProperties: true,
    },
    ...publishedSchemas('media-buy/sync-event-sources'),
    mutates: true,
    async handler(args, ctx) {
      const account = requireActiveAccount(ctx.account);
      const sandbox = account['sandbox'] === true;
      const now = ctx.clock.now();
      const existing = new Map(
        (await sql.eventSourcesOf(ctx.db, account.account_id)).map((r) => [r.event_source_id, r]),
      );
      const sent = args['event_sources'] as Source[] | undefined;
      if (!sent) return { event_sources: [...existing.values()].map((r) => answer(r.source, 'unchanged')), sandbox };

      const seen = new Set<string>();
      const outcomes: Record<string, unknown>[] = [];
      for (const [i, source] of sent.entries()) {
        if (seen.has(source.event_source_id)) {
          throw new AgentError(
            'INVALID_REQUEST',
            `event_sources[${i}] repeats event_source_id ${source.event_source_id}; send each source once.`,
            { field: `event_sources[${i}].event_source_id` },
          );
        }
        seen.add(source.event_source_id);
        const before = existing.get(source.event_source_id);
        const action = !before
          ? 'created'
          : canonicalize(before.source) === canonicalize(source)
            ? 'unchanged'
            : 'updated';
        if (action !== 'unchanged')
          await sql.upsertEventSource(ctx.db, {
            account_id: account.account_id,
            event_source_id: source.event_source_id,
            source,
            created_at: before?.created_at ?? now,
            updated_at: now,
          });
        outcomes.push(answer(source, action));
      }
      if (args['delete_missing'] === true) {
        for (const [id, row] of existing) {
          if (seen.has(id)) continue;
          await sql.deleteEventSource(ctx.db, account.account_id, id);
          outcomes.push({ ...answer(row.source, 'deleted'), setup: undefined });
        }
      }
      return { event_sources: outcomes.map(dropUndefined), sandbox };
    },
  };
}

function answer(source: Source, action: 'created' | 'updated' | 'unchanged' | 'deleted'): Record<string, unknown> {
  return {
    event_source_id: source.event_source_id,
    ...(source.name ? { name: source.name } : {}),
    ...(source.event_types ? { event_types: source.event_types } : {}),
    managed_by: 'buyer',
    setup,
    action,
  };
}

const dropUndefined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
