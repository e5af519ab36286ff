/**
 * Ending a process group, with real processes: a Node leader that starts children carrying a
 * marker, found in /proc (zombies count as gone).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../test/eventually';
import { killCarrying, processesCarrying, uniqueMarker } from '../test/exec-plugins/processes';
import { ProcessGroup, spawnInGroup } from './process-group';

const markers: string[] = [];
afterEach(() => {
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
