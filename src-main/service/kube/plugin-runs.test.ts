/**
 * When a cluster's credential plugin runs, with credential.mjs as the plugin and a clock the test
 * moves: one run at a time, none during the backoff after a failure (counted in runs, never
 * timed), the cluster's timeout for a run whoever starts it, and none after close().
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { eventually } from '../test-support/eventually.test-support';
import { pluginFixtures } from '../test-support/exec-plugins/fixture.test-support';
import { processesCarrying } from '../test-support/exec-plugins/processes.test-support';
import type { ExecConfig, ExecCredential } from './exec-plugin';
import { type PluginRunOptions, PluginRuns } from './plugin-runs';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-plugin-runs-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
const { fixture, cleanup } = pluginFixtures(() => dir);
afterEach(cleanup);

const CLUSTER = () => ({ server: 'https://kube.example.test:6443' });
const token = (c: ExecCredential) => c.token;
/** Runs of `exec` whose credential becomes its token. */
const runsOf = (exec: ExecConfig, opts: PluginRunOptions = {}) =>
  new PluginRuns({ exec, cluster: CLUSTER, accept: token }, opts);
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('accepted');
    },
    (err: unknown) => err as ProblemError,
  );

describe('after a failed run', () => {
  it('the plugin runs again no sooner than the backoff allows, however many ask; a success starts the backoff over', async () => {
    const plugin = await fixture({ mode: 'fail', message: 'SSO session expired' });
    let now = Date.UTC(2026, 10, 24, 9);
    // random 1: each hold-off is the top of its range, base·2ⁿ up to the cap.
    const runs = runsOf(plugin.exec, {
      backoff: { baseMs: 1_000, capMs: 4_000, stableAfterMs: 60_000 },
      now: () => now,
      random: () => 1,
    });
    const ask = (n: number) => Promise.all(Array.from({ length: n }, () => refusal(runs.run(10_000))));
    const [first] = await ask(1);
    expect(first!.message).toMatch(/failed \(exit code 1\): SSO session expired$/);
    expect(first!.headers).toEqual({});
    expect(plugin.runs()).toBe(1);
    // Held: the last failure at once, saying when the plugin runs next.
    const [held] = await ask(3);
    expect(held).toBeInstanceOf(ProblemError);
    expect(held!.code).toBe('cluster_unauthorized');
    expect(held!.message).toBe(`${first!.message} (not run again for 1 s)`);
    expect(held!.headers).toEqual({ 'Retry-After': '1' });
    now += 999;
    await ask(3);
    expect(plugin.runs()).toBe(1);
    // Each hold-off doubles (1 s, 2 s, 4 s) up to the cap (4 s).
    const schedule: Array<[number, number]> = [];
    for (const wait of [1, 1_999, 1, 3_999, 1, 3_999, 1]) {
      now += wait;
      await ask(3);
      schedule.push([wait, plugin.runs()]);
    }
    expect(schedule).toEqual([
      [1, 2],
      [1_999, 2],
      [1, 3],
      [3_999, 3],
      [1, 4],
      [3_999, 4],
      [1, 5],
    ]);
    now += 1_001;
    expect((await ask(1))[0]!.headers).toEqual({ 'Retry-After': '3' });
    // A success resets the backoff: the next failure is held 1 s again.
    await plugin.steer({ mode: 'ok', token: 'back' });
    now += 3_000;
    expect(await runs.run(10_000)).toBe('back');
    expect(await runs.run(10_000)).toBe('back');
    expect(plugin.runs()).toBe(7);
    await plugin.steer({ mode: 'fail', message: 'gone again' });
    await ask(2);
    expect(plugin.runs()).toBe(8);
    now += 999;
    await ask(2);
    expect(plugin.runs()).toBe(8);
    now += 1;
    await ask(2);
    expect(plugin.runs()).toBe(9);
  });

  it('a credential `accept` refuses counts as a failed run; a failure that is no problem is held as it is', async () => {
    const plugin = await fixture({ mode: 'ok', token: 'unusable' });
    const odd = new Error('not a problem');
    const runs = new PluginRuns(
      {
        exec: plugin.exec,
        cluster: CLUSTER,
        accept: () => {
          throw odd;
        },
      },
      { backoff: { baseMs: 60_000, capMs: 60_000, stableAfterMs: 0 } },
    );
    expect(await refusal(runs.run(10_000))).toBe(odd);
    expect(await refusal(runs.run(10_000))).toBe(odd);
    expect(plugin.runs()).toBe(1);
  });
});

describe('one run at a time', () => {
  it('the next run starts only once the previous one and its helpers are gone', async () => {
    const plugin = await fixture({ mode: 'ok', token: 't', helper: { stdio: 'ignore', ignoreTerm: true } });
    const runs = runsOf(plugin.exec, { groupEnd: { graceMs: 500, pollMs: 20 } });
    // Five asking at once share one run.
    expect(await Promise.all(Array.from({ length: 5 }, () => runs.run(10_000)))).toEqual(Array(5).fill('t'));
    expect(plugin.runs()).toBe(1);
    // Asked again while the first run's helper shrugs off SIGTERM in its grace.
    expect(await runs.run(10_000)).toBe('t');
    expect(plugin.runs()).toBe(2);
    expect(plugin.overlaps()).toEqual([0, 0]);
    await runs.close();
    await eventually(async () => expect(processesCarrying(plugin.marker)).toEqual([]), 10_000);
  });
});

describe("a run's timeout", () => {
  it("is the cluster's when given, not the deadline of the request that started the run", async () => {
    const plugin = await fixture({ mode: 'ok', token: 'slow', delayMs: 1_000 });
    const runs = runsOf(plugin.exec, { pluginTimeoutMs: 30_000 });
    expect(await runs.run(100)).toBe('slow');
    const plain = runsOf(plugin.exec);
    const err = await refusal(plain.run(100));
    expect(err.message).toBe(`the credential plugin "${process.execPath}" did not answer within 0.1 s`);
  });
});

describe('close()', () => {
  it('ends the run still going with everything it started, and starts no other', async () => {
    const plugin = await fixture({ mode: 'ok', token: 't', delayMs: 60_000, helper: { stdio: 'inherit' } });
    const runs = runsOf(plugin.exec);
    const pending = refusal(runs.run(60_000));
    await eventually(async () => expect(plugin.helpers()).toHaveLength(1), 10_000);
    await runs.close();
    expect((await pending).message).toBe('the cluster connection was closed');
    await eventually(async () => expect(processesCarrying(plugin.marker)).toEqual([]), 10_000);
    const after = await refusal(runs.run(10_000));
    expect([after.code, after.message]).toEqual(['cluster_unreachable', 'the cluster connection was closed']);
    expect(plugin.runs()).toBe(1);
  });

  it('with nothing run, ends at once', async () => {
    await runsOf({ command: 'skiff-never-run' }).close();
  });
});
