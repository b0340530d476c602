import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  dueReports,
  periodEnd,
  type DueReport,
  type ReportingState,
} from '../../../../src/agents/sales/delivery/report-schedule.ts';

const at = (iso: string) => new Date(iso);
const iso = (d: Date) => d.toISOString();
/** A report as [kind, from, to, next expected], in ISO text. */
const shown = (r: DueReport) => [
  r.kind,
  iso(r.period.from),
  iso(r.period.to),
  r.kind === 'scheduled' ? iso(r.nextExpectedAt) : undefined,
];

const daily: ReportingState = {
  frequency: 'daily',
  start: at('2026-03-01T10:00:00.000Z'),
  end: at('2026-03-04T00:00:00.000Z'),
  finishedAt: undefined,
  reportedUntil: null,
  finalSent: false,
};

describe('reporting schedule', () => {
  it('reports nothing before a period has ended, then each UTC day from the start, the first clipped to it', () => {
    assert.deepEqual(dueReports(daily, at('2026-03-01T09:00:00.000Z'), 24), []);
    assert.deepEqual(dueReports(daily, at('2026-03-01T23:59:59.999Z'), 24), []);
    assert.deepEqual(dueReports(daily, at('2026-03-02T00:00:00.000Z'), 24).map(shown), [
      ['scheduled', '2026-03-01T10:00:00.000Z', '2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z'],
    ]);
  });

  it('goes on from the last period reported; the last one expects the final report when the flight ends', () => {
    const after = { ...daily, reportedUntil: at('2026-03-02T00:00:00.000Z') };
    assert.deepEqual(
      dueReports(after, at('2026-03-06T00:00:00.000Z'), 24).map(shown),
      [
        ['scheduled', '2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z', '2026-03-04T00:00:00.000Z'],
        ['scheduled', '2026-03-03T00:00:00.000Z', '2026-03-04T00:00:00.000Z', '2026-03-04T00:00:00.000Z'],
      ],
      'no final before the buy has finished',
    );
  });

  it('sends the final report over the whole flight once the buy has finished and every period is reported, once', () => {
    const finished = { ...daily, finishedAt: at('2026-03-04T00:01:00.000Z') };
    assert.deepEqual(dueReports(finished, at('2026-03-04T00:01:00.000Z'), 24).map(shown), [
      ['scheduled', '2026-03-01T10:00:00.000Z', '2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z'],
      ['scheduled', '2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z', '2026-03-04T00:00:00.000Z'],
      ['scheduled', '2026-03-03T00:00:00.000Z', '2026-03-04T00:00:00.000Z', '2026-03-04T00:00:00.000Z'],
      ['final', '2026-03-01T10:00:00.000Z', '2026-03-04T00:00:00.000Z', undefined],
    ]);
    assert.deepEqual(
      dueReports({ ...finished, reportedUntil: finished.end, finalSent: true }, at('2026-04-01T00:00:00.000Z'), 24),
      [],
    );
  });

  it('stops at a cancellation: the period it cuts is reported up to it, then the final one', () => {
    const canceled = {
      ...daily,
      reportedUntil: at('2026-03-02T00:00:00.000Z'),
      finishedAt: at('2026-03-02T15:30:00.000Z'),
    };
    assert.deepEqual(dueReports(canceled, at('2026-03-02T15:30:00.000Z'), 24).map(shown), [
      ['scheduled', '2026-03-02T00:00:00.000Z', '2026-03-02T15:30:00.000Z', '2026-03-02T15:30:00.000Z'],
      ['final', '2026-03-01T10:00:00.000Z', '2026-03-02T15:30:00.000Z', undefined],
    ]);
    const never = { ...daily, finishedAt: at('2026-02-20T00:00:00.000Z') };
    assert.deepEqual(
      dueReports(never, at('2026-02-20T00:00:00.000Z'), 24).map(shown),
      [['final', '2026-02-20T00:00:00.000Z', '2026-02-20T00:00:00.000Z', undefined]],
      'canceled before its start: only the final one',
    );
  });

  it('sends at most `max` at once, oldest first, and the rest from where they stopped', () => {
    const hourly: ReportingState = { ...daily, frequency: 'hourly', end: at('2026-03-11T10:00:00.000Z') };
    const now = at('2026-03-02T16:10:00.000Z');
    const first = dueReports(hourly, now, 24);
    assert.equal(first.length, 24);
    assert.deepEqual(shown(first[0]!), [
      'scheduled',
      '2026-03-01T10:00:00.000Z',
      '2026-03-01T11:00:00.000Z',
      '2026-03-01T12:00:00.000Z',
    ]);
    const rest = dueReports({ ...hourly, reportedUntil: first.at(-1)!.period.to }, now, 24);
    assert.deepEqual(
      rest.map((r) => iso(r.period.from)),
      [
        '2026-03-02T10:00:00.000Z',
        '2026-03-02T11:00:00.000Z',
        '2026-03-02T12:00:00.000Z',
        '2026-03-02T13:00:00.000Z',
        '2026-03-02T14:00:00.000Z',
        '2026-03-02T15:00:00.000Z',
      ],
    );
  });

  it('takes a new frequency from the last period reported on', () => {
    const changed: ReportingState = { ...daily, frequency: 'hourly', reportedUntil: at('2026-03-02T00:00:00.000Z') };
    assert.deepEqual(
      dueReports(changed, at('2026-03-02T02:00:00.000Z'), 24).map((r) => iso(r.period.to)),
      ['2026-03-02T01:00:00.000Z', '2026-03-02T02:00:00.000Z'],
    );
    const slower: ReportingState = { ...daily, reportedUntil: at('2026-03-01T13:00:00.000Z') };
    assert.deepEqual(
      dueReports(slower, at('2026-03-02T00:00:00.000Z'), 24).map((r) => [iso(r.period.from), iso(r.period.to)]),
      [['2026-03-01T13:00:00.000Z', '2026-03-02T00:00:00.000Z']],
    );
  });

  it('cuts monthly periods at calendar months, in UTC, across a year', () => {
    const monthly: ReportingState = {
      ...daily,
      frequency: 'monthly',
      start: at('2026-11-15T12:00:00.000Z'),
      end: at('2027-02-10T00:00:00.000Z'),
      finishedAt: at('2027-02-10T00:00:30.000Z'),
    };
    assert.deepEqual(dueReports(monthly, at('2027-03-01T00:00:00.000Z'), 24).map(shown), [
      ['scheduled', '2026-11-15T12:00:00.000Z', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
      ['scheduled', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z'],
      ['scheduled', '2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z', '2027-02-10T00:00:00.000Z'],
      ['scheduled', '2027-02-01T00:00:00.000Z', '2027-02-10T00:00:00.000Z', '2027-02-10T00:00:00.000Z'],
      ['final', '2026-11-15T12:00:00.000Z', '2027-02-10T00:00:00.000Z', undefined],
    ]);
    assert.equal(
      iso(periodEnd(at('2028-02-29T23:00:00.000Z'), 'monthly', at('2030-01-01T00:00:00.000Z'))),
      '2028-03-01T00:00:00.000Z',
    );
    assert.equal(
      iso(periodEnd(at('2028-02-29T23:59:59.999Z'), 'daily', at('2030-01-01T00:00:00.000Z'))),
      '2028-03-01T00:00:00.000Z',
    );
    assert.equal(
      iso(periodEnd(at('2026-12-31T23:30:00.000Z'), 'hourly', at('2030-01-01T00:00:00.000Z'))),
      '2027-01-01T00:00:00.000Z',
    );
  });
});
