/**
 * A child that leads a process group of its own, and the end of that whole group. Killing a
 * credential plugin alone leaves what it started (a `sleep` in a shell script, a token agent, a
 * browser launcher) re-parented to PID 1 for good; signalling the group (kill(-pgid)) ends them
 * with it. Rules:
 * - end() is SIGTERM to the group, then SIGKILL after the grace if any member is left. It resolves
 *   once the group is seen empty or SIGKILL was sent (nothing outlives SIGKILL, though it may stay
 *   a zombie where PID 1 reaps nothing); it is idempotent.
 * - Once the group was seen empty nothing is signalled again: its id may belong to another now.
 * - A signal that fails (ESRCH: no member left; EPERM: none we may signal) means "nothing left to
 *   end", never a throw.
 * - A process that starts a session of its own (setsid, as daemons do) leaves the group on purpose
 *   and is not ended. Windows has no process groups: there only the child itself is ended.
 */

import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

export interface GroupEndOptions {
  /** How long the group has after SIGTERM before SIGKILL. */
  graceMs: number;
  /** How often the group is checked for members during the grace. */
  pollMs: number;
}

export const DEFAULT_GROUP_END: GroupEndOptions = { graceMs: 1_000, pollMs: 50 };

const GROUPS = process.platform !== 'win32';

/** Spawns `command` as the leader of a new process group (POSIX), so its group can be ended. */
export function spawnInGroup(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  return spawn(command, args, { ...options, detached: GROUPS });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The process group a spawnInGroup child leads, for as long as any of its members lives. */
export class ProcessGroup {
  private ending: Promise<void> | undefined;
  private empty = false;

  constructor(
    readonly pid: number,
    private readonly opts: GroupEndOptions = DEFAULT_GROUP_END,
  ) {}

  /** True while some member of the group is alive (or a zombie nobody reaped). */
  alive(): boolean {
    return this.signal(0);
  }

  /** Ends every member: SIGTERM, then SIGKILL to whatever is left after the grace. */
  end(): Promise<void> {
    this.ending ??= this.terminate();
    return this.ending;
  }

  private async terminate(): Promise<void> {
    if (!this.signal('SIGTERM')) return;
    for (let waited = 0; waited < this.opts.graceMs; waited += this.opts.pollMs) {
      await sleep(this.opts.pollMs);
      if (!this.alive()) return;
    }
    this.signal('SIGKILL');
  }

  /** Sends `signal` to the whole group; false when no member is left to receive it. */
  private signal(signal: NodeJS.Signals | 0): boolean {
    if (this.empty) return false;
    try {
      process.kill(GROUPS ? -this.pid : this.pid, signal);
      return true;
    } catch {
      this.empty = true;
      return false;
    }
  }
}
