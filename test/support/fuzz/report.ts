import type { FuzzCase } from './cases.ts';
import { excerpt } from './oracle.ts';
import type { Failure, FuzzReport } from './run.ts';

/** Failures that are the same defect: one target, one kind of finding, one shape of detail. */
export interface FailureGroup {
  target: string;
  kind: string;
  /** The detail with numbers, ids and quoted values blanked, so repeats of a defect fall together. */
  signature: string;
  count: number;
  first: Failure;
}

export function groupFailures(failures: readonly Failure[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const failure of failures) {
    const signature = signatureOf(failure.finding.detail);
    const key = `${failure.fuzzCase.target}\u0000${failure.finding.kind}\u0000${signature}`;
    const group = groups.get(key);
    if (group) group.count++;
    else
      groups.set(key, {
        target: failure.fuzzCase.target,
        kind: failure.finding.kind,
        signature,
        count: 1,
        first: failure,
      });
  }
  return [...groups.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.target.localeCompare(b.target));
}

function signatureOf(detail: string): string {
  return detail
    .slice(0, 200)
    .replace(/"[^"]*"/g, '"…"')
    .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, '<uuid>')
    .replace(/\d+/g, '#');
}

/** The report: a summary line, then each group of failures with the case that replays it. */
export function formatReport(report: FuzzReport, replay: (seed: number, index: number) => string): string {
  const groups = groupFailures(report.failures);
  const lines = [
    `fuzz: seed ${report.seed}, ${report.cases} cases over ${report.targets.length} targets in ${(report.ms / 1000).toFixed(1)} s (setup ${(report.setupMs / 1000).toFixed(1)} s); ` +
      `/healthz polled ${report.liveness.polls} times, slowest ${Math.round(report.liveness.slowestMs)} ms (${report.busyMachinePolls} slow while the server’s loop ran freely: the machine was busy); longest stall of the server’s event loop ${Math.round(report.longestStallMs)} ms; ` +
      `${report.failures.length} failures in ${groups.length} groups`,
  ];
  for (const group of groups) {
    const { fuzzCase, finding } = group.first;
    lines.push(
      '',
      `[${group.kind}] ${group.target} (${group.count}×)`,
      `  got: ${finding.detail}`,
      `  case ${fuzzCase.index} (${fuzzCase.credential}): ${fuzzCase.notes.join('; ')}`,
      `  sent: ${describeCall(fuzzCase)}`,
      fuzzCase.index >= 0
        ? `  replay: ${replay(group.first.seed, fuzzCase.index)}`
        : '  (between cases: no case to replay)',
    );
  }
  return lines.join('\n');
}

/** What a case sent, short enough to read. */
export function describeCall(fuzzCase: FuzzCase): string {
  const { call } = fuzzCase;
  const headers = Object.entries(call.headers)
    .map(([k, v]) => `${k}: ${excerpt(v, 60)}`)
    .join(', ');
  if (call.kind === 'http')
    return `${call.method} ${excerpt(call.path, 300)} {${headers}}${call.body !== undefined ? ` body ${excerpt(call.body, 400)}` : ''}`;
  return `${call.kind} ${call.endpoint || '/'}: ${call.tool} ${excerpt(JSON.stringify(call.args) ?? 'undefined', 400)} {${headers}}`;
}
