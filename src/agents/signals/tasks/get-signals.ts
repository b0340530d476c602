import { AgentError } from '../../../protocol/errors.ts';
import {
  accountRefInput,
  errorObject,
  ownerOf,
  pageRequestInput,
  paginate,
  pageStart,
  textInput,
  publishedSchemas,
  type AgentTask,
  type PageRequest,
  type TaskArguments,
} from '../../runtime/index.ts';
import { destinationsInput, destinationsOf, type Destination } from '../activations/destination.ts';
import { ownerActivations, type ActivationRow } from '../activations/sql.ts';
import { toWireSignal, type CatalogSignal, type PlatformAvailability, type SignalId } from '../catalog/index.ts';
import { deploymentsOf } from '../deployments.ts';
import type { Offering } from '../offering.ts';
import { inCatalogTerms, unservedPlatform } from '../platforms.ts';
import { passesFilters, type SignalFilters } from '../signal-filters.ts';
import { principalAccount, visibleTo } from '../visibility.ts';

const maxPage = 100;

interface GetSignalsArgs {
  signal_spec?: string;
  signal_ids?: SignalId[];
  deliver_to?: { deployments?: unknown; countries?: unknown };
  destinations?: unknown;
  countries?: unknown;
  filters?: SignalFilters;
  max_results?: number;
  pagination?: PageRequest;
}

export interface SignalsView {
  offering: () => Offering;
  base: () => string;
  /** Minutes an activation on a platform takes. */
  minutes: (availability: PlatformAvailability) => number;
}

/**
 * `get_signals` (spec section 4; signals/get-signals-request.json): a natural-language spec
 * ranked against the catalog in memory (see SignalSearch), exact `signal_ids` looked up (first,
 * when both are given; unknown ones omitted), narrowed by filters, countries and the delivery
 * targets, each signal with its deployments on those targets for this caller. Custom and owned
 * signals are seen only by the principals they belong to. A platform target the agent does not
 * serve is answered in `errors` (one per target), and a spec that matches nothing in the catalog
 * with the broadest signals the rest of the request admits and a `message` saying so.
 */
export function getSignalsTask(view: SignalsView): AgentTask<GetSignalsArgs & TaskArguments> {
  return {
    name: 'get_signals',
    description:
      'Discover audience signals. signal_spec describes the audience in words ("women 25-34 in-market for an EV in Germany"); a spec naming no one ("audience") gets the broadest signals by coverage, with a message saying so. signal_ids looks signals up exactly. deliver_to (or destinations and countries) names where they will be used, platforms by their usual identifiers (the-trade-desk, dv360, amazon-dsp, ...; get_ap_capabilities lists them); each signal says per target whether it is live and its activation key, and a target it cannot serve is named in errors.',
    input: {
      type: 'object',
      properties: {
        signal_spec: textInput('prose', 'The audience wanted, in natural language'),
        signal_ids: {
          type: 'array',
          maxItems: 1000,
          items: { type: 'object' },
          description: 'core/signal-id.json: exact lookups (up to 1,000); unknown ids are omitted.',
        },
        deliver_to: {
          type: 'object',
          description: 'The spec’s delivery targets: deployments[] (deployment targets) and countries[] (ISO codes).',
          properties: { deployments: destinationsInput, countries: { type: 'array', items: { type: 'string' } } },
        },
        destinations: {
          ...destinationsInput,
          description: 'core/destination.json targets (the published schema’s name for deliver_to.deployments).',
        },
        countries: {
          type: 'array',
          items: { type: 'string', pattern: '^[A-Z]{2}$' },
          description: 'ISO 3166-1 alpha-2 codes where the signals will be used.',
        },
        filters: {
          type: 'object',
          description: 'core/signal-filters.json.',
          properties: {
            catalog_types: { type: 'array', items: { type: 'string', enum: ['marketplace', 'custom', 'owned'] } },
            data_providers: { type: 'array', items: { type: 'string' } },
            max_cpm: { type: 'number', minimum: 0 },
            max_percent: { type: 'number', minimum: 0, maximum: 100 },
            min_coverage_percentage: { type: 'number', minimum: 0, maximum: 100 },
          },
        },
        max_results: {
          type: 'integer',
          minimum: 1,
          description: 'Page size (deprecated for pagination.max_results); at most 100.',
        },
        account: accountRefInput,
        pagination: pageRequestInput,
      },
      additionalProperties: true,
    },
    ...publishedSchemas('signals/get-signals'),
    mutates: false,
    async handler(args, ctx) {
      if (args.deliver_to !== undefined && (typeof args.deliver_to !== 'object' || args.deliver_to === null))
        throw new AgentError('INVALID_REQUEST', 'deliver_to must be an object.', { field: 'deliver_to' });
      const targetsField = args.destinations !== undefined ? 'destinations' : 'deliver_to.deployments';
      const offering = view.offering();
      const named = destinationsOf(args.destinations ?? args.deliver_to?.deployments, targetsField);
      const targets = named && inCatalogTerms(named, offering.platformOf);
      const countries = countriesOf(args);
      const account = principalAccount(ctx.principal);
      const include = (signal: CatalogSignal) =>
        visibleTo(signal, account) &&
        passesFilters(signal, args.filters) &&
        (countries === undefined || signal.countries.some((c) => countries.has(c))) &&
        canGoOn(signal, targets);

      // The signals asked for by id first, then the ranked ones (each signal once).
      const chosen: CatalogSignal[] = [];
      const byId = new Set<string>();
      for (const id of args.signal_ids ?? []) {
        const signal = offering.bySignalId(id, view.base());
        if (signal && include(signal) && !byId.has(signal.signal_agent_segment_id)) {
          byId.add(signal.signal_agent_segment_id);
          chosen.push(signal);
        }
      }
      const size = Math.min(maxPage, args.pagination?.max_results ?? args.max_results ?? 50);
      const request = { ...args.pagination, max_results: size };
      let total = chosen.length;
      let message: string | undefined;
      if (args.signal_spec?.trim()) {
        const unchosen = (signal: CatalogSignal) =>
          include(signal) && (byId.size === 0 || !byId.has(signal.signal_agent_segment_id));
        // Ranked in order only as far as the page asked for ends; the rest are counted.
        const found = offering.search.search(args.signal_spec, unchosen, pageStart(request) + size);
        for (const { signal } of found.ranked) chosen.push(signal);
        total += found.total;
        if (!found.matched) {
          // Words that say nothing about who ("audience", "people") are answered with the widest reach on offer, said as such.
          for (const signal of offering.broadest) if (unchosen(signal)) chosen.push(signal);
          total = chosen.length;
          message = `No signal matched the words of signal_spec, so these are the broadest signals by coverage that fit the rest of the request. Describe who they are, what they do or buy, or where, for ranked matches.`;
        }
      }

      const { page, pagination } = paginate(chosen, request, total);
      const activations = byTarget(
        page.length > 0
          ? await ownerActivations(
              ctx.db,
              ctx.tenant.name,
              ownerOf(ctx.principal),
              page.map((s) => s.signal_agent_segment_id),
            )
          : [],
      );
      const now = ctx.clock.now();
      const baseUrl = view.base();
      const signals = page.map((signal) =>
        toWireSignal(signal, {
          baseUrl,
          deployments:
            deploymentsOf(signal, {
              targets,
              activations: activations.get(signal.signal_agent_segment_id) ?? new Map(),
              now,
              minutes: view.minutes,
            }) ?? [],
        }),
      );
      const unserved = (targets ?? []).flatMap((target, index) =>
        target.type === 'platform' && !offering.platforms.has(target.platform)
          ? [errorObject(unservedPlatform(target.platform, `${targetsField}[${index}].platform`, offering.platforms))]
          : [],
      );
      return {
        signals,
        ...(unserved.length > 0 ? { errors: unserved } : {}),
        ...(message ? { message } : {}),
        pagination,
      };
    },
  };
}

function countriesOf(args: GetSignalsArgs): Set<string> | undefined {
  const named = args.countries ?? args.deliver_to?.countries;
  if (named === undefined) return undefined;
  const field = args.countries !== undefined ? 'countries' : 'deliver_to.countries';
  if (
    !Array.isArray(named) ||
    named.length === 0 ||
    !named.every((c) => typeof c === 'string' && /^[A-Za-z]{2}$/.test(c))
  ) {
    throw new AgentError(
      'INVALID_REQUEST',
      `${field} must be a non-empty list of ISO 3166-1 alpha-2 country codes such as "US".`,
      { field },
    );
  }
  return new Set(named.map((c: string) => c.toUpperCase()));
}

/** Whether the signal can go on one of the named targets (any signal can go to an agent). */
function canGoOn(signal: CatalogSignal, targets: readonly Destination[] | undefined): boolean {
  return (
    targets === undefined ||
    targets.some((t) => t.type === 'agent' || signal.platforms.some((p) => p.platform === t.platform))
  );
}

function byTarget(rows: readonly ActivationRow[]): Map<string, Map<string, ActivationRow>> {
  const bySignal = new Map<string, Map<string, ActivationRow>>();
  for (const row of rows) {
    let targets = bySignal.get(row.signal_agent_segment_id);
    if (!targets) bySignal.set(row.signal_agent_segment_id, (targets = new Map()));
    targets.set(row.target, row);
  }
  return bySignal;
}
