/**
 * Running an exec credential plugin, one rule per test, with small Node scripts as the plugins:
 * what it is told, which credential it may print, and how each way of failing is named.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProblemError } from '../errors';
import { eventually } from '../test-support/eventually.test-support';
import { pluginFixtures } from '../test-support/exec-plugins/fixture.test-support';
import { processesCarrying } from '../test-support/exec-plugins/processes.test-support';
import { type ExecConfig, runExecPlugin, startExecPlugin } from './exec-plugin';

const V1 = 'client.authentication.k8s.io/v1';
const CLUSTER = { server: 'https://kube.example.test:6443', 'tls-server-name': 'kube' };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-exec-plugin-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A plugin that runs `script` in Node; the plugin's name in messages is Node's path. */
const node = (script: string, extra: Partial<ExecConfig> = {}): ExecConfig => ({
  command: process.execPath,
  args: ['-e', script],
  ...extra,
});
const prints = (value: unknown, extra: Partial<ExecConfig> = {}) =>
  node(
    `process.stdout.write(${JSON.stringify(typeof value === 'string' ? value : JSON.stringify(value))})`,
    extra,
  );
const credential = (status: Record<string, string>, apiVersion: string | undefined = V1) => ({
  ...(apiVersion ? { apiVersion } : {}),
  kind: 'ExecCredential',
  status,
});

async function refusal(config: ExecConfig, timeoutMs = 10_000): Promise<ProblemError> {
  return runExecPlugin(config, CLUSTER, timeoutMs).then(
    () => {
      throw new Error('the plugin was accepted');
    },
    (err: unknown) => err as ProblemError,
  );
}
const said = (config: ExecConfig, detail: string) => `the credential plugin "${config.command}" ${detail}`;

describe('the credential a plugin prints', () => {
  it('a token is used as given, with its expiry as epoch ms', async () => {
    const config = prints(credential({ token: 'abc', expirationTimestamp: '2026-11-24T10:00:00Z' }));
    expect(await runExecPlugin(config, CLUSTER, 10_000)).toEqual({
      token: 'abc',
      expiresAt: Date.parse('2026-11-24T10:00:00Z'),
    });
  });

  it('a client certificate and key are used without a token, and without an expiry the credential lasts', async () => {
    const config = prints(credential({ clientCertificateData: 'CERT', clientKeyData: 'KEY' }, undefined));
    expect(await runExecPlugin(config, CLUSTER, 10_000)).toEqual({
      clientCertificateData: 'CERT',
      clientKeyData: 'KEY',
    });
  });

  it.each([
    ['no JSON', 'Please log in first\n', 'printed no JSON ExecCredential: Please log in first'],
    ['nothing', '', 'printed no JSON ExecCredential: (nothing)'],
    [
      'JSON that is no ExecCredential',
      JSON.stringify({ kind: 'Pod' }),
      'printed an invalid ExecCredential: ',
    ],
    [
      'a certificate without its key',
      JSON.stringify(credential({ clientCertificateData: 'CERT' })),
      'returned neither a token nor a client certificate and key',
    ],
    [
      'an expiry that is not a time',
      JSON.stringify(credential({ token: 't', expirationTimestamp: 'tomorrow' })),
      'returned an unreadable expirationTimestamp "tomorrow"',
    ],
    [
      'another apiVersion than the kubeconfig asks for',
      JSON.stringify(credential({ token: 't' }, 'client.authentication.k8s.io/v1beta1')),
      `answered with client.authentication.k8s.io/v1beta1, but the kubeconfig asks for ${V1}`,
    ],
  ])('%s is refused as unauthorized, naming the plugin', async (_, stdout, detail) => {
    const config = prints(stdout);
    const err = await refusal(config);
    expect(err.code).toBe('cluster_unauthorized');
    expect(err.message.startsWith(said(config, detail))).toBe(true);
  });
});

describe('what a plugin is told', () => {
  const echoEnv = node(
    `process.stdout.write(JSON.stringify({ kind: 'ExecCredential', status: { token: JSON.stringify({ info: JSON.parse(process.env.KUBERNETES_EXEC_INFO), skiff: Object.keys(process.env).filter((k) => k.startsWith('SKIFF_')), mine: process.env.MY_SETTING ?? null }) } }))`,
  );
  const told = async (extra: Partial<ExecConfig>) => {
    const { token } = await runExecPlugin({ ...echoEnv, ...extra }, CLUSTER, 10_000);
    return JSON.parse(token!) as { info: Record<string, unknown>; skiff: string[]; mine: string | null };
  };

  it('KUBERNETES_EXEC_INFO in the apiVersion the kubeconfig names, never interactive, without the cluster unless asked', async () => {
    const plain = await told({ apiVersion: 'client.authentication.k8s.io/v1beta1' });
    expect(plain.info).toEqual({
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      kind: 'ExecCredential',
      spec: { interactive: false },
    });
  });

  it('the cluster, when the kubeconfig sets provideClusterInfo', async () => {
    const { info } = await told({ provideClusterInfo: true });
    expect(info).toEqual({
      apiVersion: V1,
      kind: 'ExecCredential',
      spec: { interactive: false, cluster: CLUSTER },
    });
  });

  it("Skiff's environment without its own SKIFF_ settings, and the kubeconfig's env entries", async () => {
    process.env.SKIFF_TEST_SECRET = 'not for plugins';
    try {
      const out = await told({ env: [{ name: 'MY_SETTING', value: 'from the kubeconfig' }] });
      expect(out.skiff).toEqual([]);
      expect(out.mine).toBe('from the kubeconfig');
    } finally {
      delete process.env.SKIFF_TEST_SECRET;
    }
  });
});

describe('a plugin that cannot give a credential', () => {
  it('of an apiVersion no longer supported is refused without being run', async () => {
    const marker = join(dir, 'alpha-ran');
    const config = node(`require("fs").writeFileSync(${JSON.stringify(marker)}, "ran")`, {
      apiVersion: 'client.authentication.k8s.io/v1alpha1',
    });
    const err = await refusal(config);
    expect(err.message).toBe(
      said(config, 'uses client.authentication.k8s.io/v1alpha1, which is no longer supported'),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(marker)).toBe(false);
  });

  it('that needs a terminal is refused without being run', async () => {
    const config = prints(credential({ token: 't' }), { interactiveMode: 'Always' });
    expect((await refusal(config)).message).toBe(
      said(config, 'needs an interactive terminal (interactiveMode: Always)'),
    );
  });

  it('that exits non-zero is named with its exit code and the end of what it wrote to stderr', async () => {
    const config = node(
      'process.stderr.write("x".repeat(5000) + "token expired, run login"); process.exit(3)',
    );
    const err = await refusal(config);
    expect(err.code).toBe('cluster_unauthorized');
    expect(err.message.startsWith(said(config, 'failed (exit code 3): '))).toBe(true);
    expect(err.message.endsWith('token expired, run login')).toBe(true);
    expect(err.message.length).toBeLessThan(said(config, '').length + 1_100);
    const silent = node('process.exit(1)');
    expect((await refusal(silent)).message).toBe(said(silent, 'failed (exit code 1): no message'));
  });

  it('that is killed by a signal says so', async () => {
    const config = node('process.kill(process.pid, "SIGTERM"); setTimeout(() => {}, 5000)');
    expect((await refusal(config)).message).toBe(said(config, 'was killed by SIGTERM: no message'));
  });

  it('that does not answer in time is a timeout naming it', async () => {
    // It would exit after 30 s with nothing printed, past this test's own timeout: the timeout
    // alone can end the run, and it says so.
    const config = node('setTimeout(() => {}, 30_000)');
    const err = await refusal(config, 300);
    expect(err.code).toBe('cluster_timeout');
    expect(err.message).toBe(`the credential plugin "${config.command}" did not answer within 0.3 s`);
  });

  it('that prints more than 1 MiB is stopped and refused', async () => {
    const config = node('process.stdout.write("x".repeat(2 * 1024 * 1024)); setTimeout(() => {}, 30_000)');
    expect((await refusal(config)).message).toBe(said(config, 'printed more than 1 MiB'));
  });

  it('that is not installed is named with the install hint the kubeconfig gives', async () => {
    const config: ExecConfig = { command: 'skiff-no-such-plugin', installHint: '  Install it with brew.\n' };
    expect((await refusal(config)).message).toBe(
      said(config, 'was not found (is it installed and on the PATH?). Install it with brew.'),
    );
    const bare: ExecConfig = { command: 'skiff-no-such-plugin' };
    expect((await refusal(bare)).message).toBe(
      said(bare, 'was not found (is it installed and on the PATH?).'),
    );
  });

  it('that cannot be run is named as such', async () => {
    const file = join(dir, 'not-executable');
    await writeFile(file, '#!/bin/sh\necho hi\n');
    await chmod(file, 0o644);
    const config: ExecConfig = { command: file };
    expect((await refusal(config)).message).toBe(said(config, 'cannot be run (permission denied)'));
  });
});

describe('what a plugin leaves behind', () => {
  const { fixture, cleanup } = pluginFixtures(() => dir);
  afterEach(cleanup);
  const nothingLeft = (marker: string) =>
    eventually(async () => expect(processesCarrying(marker)).toEqual([]), 10_000);

  it('a helper holding the stdout of a plugin that answered does not hold the run, and is ended with it', async () => {
    const plugin = await fixture({ mode: 'ok', token: 'tok', helper: { stdio: 'inherit' } });
    // Far longer than the run: only the plugin exiting can end it with the credential.
    expect(await runExecPlugin(plugin.exec, CLUSTER, 15_000)).toEqual({ token: 'tok' });
    expect(plugin.helpers()).toHaveLength(1);
    await nothingLeft(plugin.marker);
  });

  it('a helper that keeps nothing open is ended when the plugin exits, whether it answered or failed', async () => {
    const ok = await fixture({ mode: 'ok', token: 'tok', helper: { stdio: 'ignore' } });
    expect(await runExecPlugin(ok.exec, CLUSTER, 15_000)).toEqual({ token: 'tok' });
    expect(ok.helpers()).toHaveLength(1);
    await nothingLeft(ok.marker);
    const failing = await fixture({ mode: 'fail', message: 'no session', helper: { stdio: 'inherit' } });
    const err = await refusal(failing.exec, 15_000);
    expect(err.message).toBe(said(failing.exec, 'failed (exit code 1): no session'));
    expect(failing.helpers()).toHaveLength(1);
    await nothingLeft(failing.marker);
  });

  it('a plugin that times out is ended with everything it started', async () => {
    const plugin = await fixture({ mode: 'ok', token: 't', delayMs: 60_000, helper: { stdio: 'inherit' } });
    const run = startExecPlugin(plugin.exec, CLUSTER, 5_000);
    await expect(run.credential).rejects.toMatchObject({ code: 'cluster_timeout' });
    // The helper was up before the deadline, so the timeout had something to end.
    expect(plugin.helpers()).toHaveLength(1);
    await run.ended;
    await nothingLeft(plugin.marker);
  });

  it('a helper that shrugs off SIGTERM is killed after the grace', async () => {
    const plugin = await fixture({
      mode: 'ok',
      token: 'tok',
      helper: { stdio: 'inherit', ignoreTerm: true },
    });
    const run = startExecPlugin(plugin.exec, CLUSTER, 15_000, { graceMs: 300, pollMs: 20 });
    expect(await run.credential).toEqual({ token: 'tok' });
    expect(plugin.helpers()).toHaveLength(1);
    await run.ended;
    await nothingLeft(plugin.marker);
  });

  it('a helper in a session of its own is left running, but the pipes it keeps do not hold the run', async () => {
    const plugin = await fixture({
      mode: 'ok',
      token: 'tok',
      helper: { stdio: 'inherit', ownSession: true },
    });
    const run = startExecPlugin(plugin.exec, CLUSTER, 15_000);
    expect(await run.credential).toEqual({ token: 'tok' });
    await run.ended;
    // It left the group as daemons do: not ours to end (cleanup does, for the test's sake).
    expect(processesCarrying(plugin.marker)).toEqual(plugin.helpers());
  });

  it('stop() ends a plugin still running and everything it started, and refuses its credential', async () => {
    const plugin = await fixture({ mode: 'ok', token: 't', delayMs: 60_000, helper: { stdio: 'inherit' } });
    const run = startExecPlugin(plugin.exec, CLUSTER, 60_000);
    await eventually(async () => expect(plugin.helpers()).toHaveLength(1), 10_000);
    const refused = expect(run.credential).rejects.toMatchObject({
      code: 'cluster_unreachable',
      message: 'the cluster connection was closed',
    });
    await run.stop();
    await refused;
    await nothingLeft(plugin.marker);
  });
});
