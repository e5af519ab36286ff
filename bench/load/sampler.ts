import { readdirSync, readFileSync } from 'node:fs';

/** Open file descriptors of a process now: the entries of /proc/<pid>/fd. */
export const openFds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces; the fields that follow it do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat(5), the 12th and 13th after the name.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Resident set size of a process now (VmRSS), in MiB. */
export function rssMiB(pid: number): number {
  const kib = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kib ?? 0) / 1024;
}

/** Samples a process's open descriptors and resident memory while a load runs, keeping the peaks. */
export class ProcSampler {
  peakFds = 0;
  peakRssMiB = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    everyMs = 200,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  private sample(): void {
    this.peakFds = Math.max(this.peakFds, openFds(this.pid));
    this.peakRssMiB = Math.max(this.peakRssMiB, rssMiB(this.pid));
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}
