import { AgentError } from '../../../protocol/errors.ts';
import type { Product } from '../catalog/index.ts';

/** The request's start_date and end_date as instants: UTC midnights, the start included, the end excluded. */
export interface AskedPeriod {
  start?: Date;
  end?: Date;
}

export function askedPeriod(args: Record<string, unknown>): AskedPeriod {
  const start = utcDay(args['start_date'], 'start_date');
  const end = utcDay(args['end_date'], 'end_date');
  if (start && end && end <= start) {
    throw new AgentError(
      'VALIDATION_ERROR',
      `end_date ${String(args['end_date'])} must come after start_date ${String(args['start_date'])}: the range includes its start day and excludes its end day.`,
      {
        field: 'end_date',
      },
    );
  }
  return { ...(start ? { start } : {}), ...(end ? { end } : {}) };
}

function utcDay(text: unknown, field: string): Date | undefined {
  if (text === undefined) return undefined;
  const at = new Date(`${String(text)}T00:00:00.000Z`);
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== text) {
    throw new AgentError('INVALID_REQUEST', `${field} ${String(text)} is not a calendar date (YYYY-MM-DD).`, { field });
  }
  return at;
}

/**
 * The span [from, to) one buy is reported over: the asked one, else its lifetime from its first
 * activity; never past now (`to` is just after it, so what was recorded at this very instant counts).
 */
export function windowOf(asked: AskedPeriod, firstActivity: Date, now: Date): { from: Date; to: Date } {
  return {
    from: asked.start ?? firstActivity,
    to: new Date(Math.min(asked.end?.getTime() ?? Infinity, now.getTime() + 1)),
  };
}

/** reporting_period: from the asked start (else the earliest first activity of the buys answered) to the asked end or now, whichever comes first. */
export function reportingPeriod(
  asked: AskedPeriod,
  firstActivities: readonly Date[],
  now: Date,
): { start: string; end: string } {
  const end = Math.min(asked.end?.getTime() ?? Infinity, now.getTime());
  const start = asked.start?.getTime() ?? Math.min(end, ...firstActivities.map((d) => d.getTime()));
  return { start: new Date(start).toISOString(), end: new Date(Math.max(start, end)).toISOString() };
}

/** The products among these whose reporting_capabilities.date_range_support is lifetime_only: they take no start_date or end_date. */
export function lifetimeOnly(productIds: readonly string[], products: readonly Product[]): string[] {
  return [...new Set(productIds)].filter(
    (id) => products.find((p) => p.product_id === id)?.reporting_capabilities['date_range_support'] === 'lifetime_only',
  );
}
