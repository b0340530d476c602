import { readFileSync } from 'node:fs';

/**
 * Resident set size of another process in bytes, as the kernel counts it (`VmRSS` of
 * /proc/<pid>/status): measured from outside, so it holds whatever the process holds (heap, code,
 * native buffers) and not what the process chooses to report. Linux only, as the benchmarks are.
 */
export function rssBytesOf(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
  if (!match) throw new Error(`/proc/${pid}/status has no VmRSS line (has the process exited?)`);
  return Number(match[1]) * 1024;
}
