import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times: USER_HZ, 100 on Linux whatever the kernel's own tick. */
const USER_HZ = 100;

/**
 * CPU seconds another process has used so far, all its threads (user and system): what a server
 * spent, apart from how long its clients waited. Linux only, as the benchmarks are.
 */
export function cpuSecondsOf(pid: number): number {
  // The command name (field 2) may hold spaces; the fields after it are counted from its ')'.
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
}
