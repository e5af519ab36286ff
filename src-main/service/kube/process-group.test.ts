/**
 * Ending a process group, with real processes: a Node leader that starts children carrying a
 * marker, found in /proc (zombies count as gone).
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventually } from '../test-support/eventually.test-support';
import {
  killCarrying,
  processesCarrying,
  uniqueMarker,
} from '../test-support/exec-plugins/processes.test-support';
import { ProcessGroup, spawnInGroup } from './process-group';

const markers: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const marker of markers.splice(0)) killCarrying(marker);
});

/**
 * A leader that starts `children` children (each shrugging off SIGTERM when `ignoreTerm`), all
 * carrying a new marker, and prints "ready" once they are up; it stays unless `leaderExits`.
 */
async function family(children: number, opts: { ignoreTerm?: boolean; leaderExits?: boolean } = {}) {
  const marker = uniqueMarker();
  markers.push(marker);
  const child = `${opts.ignoreTerm ? "process.on('SIGTERM', () => {});" : ''} process.send('up'); setInterval(() => {}, 1 << 30);`;
  const ready = `process.stdout.write('ready'); ${opts.leaderExits ? 'process.exit(0);' : ''}`;
  const leader = `
    const { spawn } = require('node:child_process');
    let up = 0;
    if (${children} === 0) { ${ready} }
    for (let i = 0; i < ${children}; i++) {
      const c = spawn(process.execPath, ['-e', ${JSON.stringify(child)}, '--', ${JSON.stringify(marker)}], {
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      });
      c.on('message', () => {
        c.disconnect();
        c.unref();
        if (++up === ${children}) { ${ready} }
      });
    }
    ${opts.leaderExits ? '' : 'setInterval(() => {}, 1 << 30);'}`;
  const proc = spawnInGroup(process.execPath, ['-e', leader, '--', marker], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    proc.stdout?.once('data', () => resolve());
    proc.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`leader exited ${code}`))));
  });
  return { marker, pid: proc.pid!, proc };
}

/** A group with a 100 ms grace checked every 50 ms. */
const group = (pid: number) => new ProcessGroup(pid, { graceMs: 100, pollMs: 50 });

const groupOf = (pid: number) =>
  Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[2]);

describe('a process group', () => {
  it('is led by the child spawnInGroup starts, and holds what that child starts', async () => {
    const { marker, pid } = await family(2);
    const members = processesCarrying(marker);
    expect(members).toHaveLength(3);
    expect(members.map(groupOf)).toEqual([pid, pid, pid]);
    expect(new ProcessGroup(pid).alive()).toBe(true);
  });

  it('end() ends the leader and everything in its group, and is the same promise however often it is asked', async () => {
    const { marker, pid } = await family(2);
    const group = new ProcessGroup(pid, { graceMs: 10_000, pollMs: 20 });
    const ending = group.end();
    expect(group.end()).toBe(ending);
    await ending;
    await eventually(async () => expect(processesCarrying(marker)).toEqual([]), 10_000);
  });

  it('end() ends the children of a leader that already exited', async () => {
    const { marker, pid, proc } = await family(2, { leaderExits: true });
    await new Promise((resolve) => (proc.exitCode === null ? proc.once('exit', resolve) : resolve(null)));
    expect(processesCarrying(marker)).toHaveLength(2);
    await new ProcessGroup(pid).end();
    await eventually(async () => expect(processesCarrying(marker)).toEqual([]), 10_000);
  });

  it('members that shrug off SIGTERM are killed once the grace is over', async () => {
    const { marker, pid } = await family(2, { ignoreTerm: true });
    const group = new ProcessGroup(pid, { graceMs: 300, pollMs: 20 });
    await group.end();
    await eventually(async () => expect(processesCarrying(marker)).toEqual([]), 10_000);
  });

  it('a group with no member left is not alive, and ending it ends at once', async () => {
    const { pid, proc } = await family(0, { leaderExits: true });
    await new Promise((resolve) => (proc.exitCode === null ? proc.once('exit', resolve) : resolve(null)));
    const group = new ProcessGroup(pid);
    expect(group.alive()).toBe(false);
    await group.end();
    expect(group.alive()).toBe(false);
  });
});

describe('the signals end() sends', () => {
  /** Every signal sent to a process group from now on, as [pgid, signal]. */
  function signalsSent() {
    const kill = vi.spyOn(process, 'kill');
    return () => kill.mock.calls.map(([pid, signal]) => [pid, signal ?? 'SIGTERM']);
  }
  /** The grace's polls wait on a clock the test moves; the processes and their exits stay real. */
  const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const exited = (proc: ChildProcess) =>
    new Promise((resolve) =>
      proc.exitCode === null && proc.signalCode === null ? proc.once('exit', resolve) : resolve(null),
    );

  it('SIGTERM at once, a check every poll, and SIGKILL only when the grace is over', async () => {
    const { pid } = await family(1, { ignoreTerm: true });
    const sent = signalsSent();
    fakeClock();
    const ending = group(pid).end();
    expect(sent()).toEqual([[-pid, 'SIGTERM']]);
    await vi.advanceTimersByTimeAsync(50);
    expect(sent()).toEqual([
      [-pid, 'SIGTERM'],
      [-pid, 0],
    ]);
    await vi.advanceTimersByTimeAsync(50);
    await ending;
    expect(sent()).toEqual([
      [-pid, 'SIGTERM'],
      [-pid, 0],
      [-pid, 0],
      [-pid, 'SIGKILL'],
    ]);
  });

  it('a group that empties within the grace is done at the next poll, without SIGKILL', async () => {
    const { pid, proc } = await family(0);
    const sent = signalsSent();
    fakeClock();
    let done = false;
    void group(pid)
      .end()
      .then(() => {
        done = true;
      });
    await exited(proc);
    await vi.advanceTimersByTimeAsync(50);
    expect(done).toBe(true);
    expect(sent()).toEqual([
      [-pid, 'SIGTERM'],
      [-pid, 0],
    ]);
  });

  it('a group already empty is done at once, and once seen empty is never signalled again', async () => {
    const { pid, proc } = await family(0, { leaderExits: true });
    await exited(proc);
    const sent = signalsSent();
    fakeClock();
    const g = group(pid);
    let done = false;
    void g.end().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
    expect(g.alive()).toBe(false);
    // Its id may belong to another process group by now.
    expect(sent()).toEqual([[-pid, 'SIGTERM']]);
  });
});
