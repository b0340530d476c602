import type { ReportingFrequency } from '../media-buys/index.ts';

/** A span [from, to) of time. */
export interface Period {
  from: Date;
  to: Date;
}

/** Where a buy's reports stand, and what of the buy decides the next ones. */
export interface ReportingState {
  frequency: ReportingFrequency;
  /** The buy's flight. */
  start: Date;
  end: Date;
  /** When it finished (completed, canceled or rejected); undefined while it runs. */
  finishedAt: Date | undefined;
  /** The end of the last period reported; null before the first. */
  reportedUntil: Date | null;
  finalSent: boolean;
}

/** A report to send: one period of the schedule, or the final one over the buy's whole flight. */
export type DueReport = { kind: 'scheduled'; period: Period; nextExpectedAt: Date } | { kind: 'final'; period: Period };

/**
 * The reports due at `now`, in order, at most `max`: one per UTC period of the frequency (hour, day,
 * calendar month) that has ended, from the flight's start until the buy stops (its end, or when it
 * finished earlier), the first and last clipped to those; then, once the buy has finished and every
 * period is reported, the final one. Reports go on whatever the buy's status in between: a paused
 * buy's show that it delivered nothing. A change of frequency takes effect from the last period
 * reported, so periods never overlap and none is skipped.
 */
export function dueReports(state: ReportingState, now: Date, max: number): DueReport[] {
  const stop = stopOf(state);
  const due: DueReport[] = [];
  let from = new Date(Math.max(state.start.getTime(), state.reportedUntil?.getTime() ?? -Infinity));
  while (due.length < max && from < stop) {
    const to = periodEnd(from, state.frequency, stop);
    if (to > now) return due;
    // After the last period comes the final report, expected when the buy stops.
    const next = to < stop ? periodEnd(to, state.frequency, stop) : stop;
    due.push({ kind: 'scheduled', period: { from, to }, nextExpectedAt: next });
    from = to;
  }
  if (due.length < max && from >= stop && state.finishedAt && !state.finalSent) {
    due.push({ kind: 'final', period: { from: new Date(Math.min(state.start.getTime(), stop.getTime())), to: stop } });
  }
  return due;
}

/** Where the reports stop: the flight's end, or when the buy finished before it. */
function stopOf(state: ReportingState): Date {
  const end = state.end.getTime();
  return new Date(state.finishedAt ? Math.min(end, state.finishedAt.getTime()) : end);
}

/** The end of the UTC period of this frequency that holds `from`, or `stop` if sooner. */
export function periodEnd(from: Date, frequency: ReportingFrequency, stop: Date): Date {
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth();
  const d = from.getUTCDate();
  const next =
    frequency === 'hourly'
      ? Date.UTC(y, m, d, from.getUTCHours() + 1)
      : frequency === 'daily'
        ? Date.UTC(y, m, d + 1)
        : Date.UTC(y, m + 1, 1);
  return new Date(Math.min(next, stop.getTime()));
}
