/**
 * The credential each request to a cluster carries, as a kubeconfig user gives it: basic auth,
 * impersonation, a token or token file, and an exec plugin (Node scripts here) with its cache,
 * its one run for many waiting requests, its deadline and what a 401 drops.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPki, type SimPki } from '@skiff/kube-simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProblemError } from '../errors';
import { eventually } from '../test-support/eventually.test-support';
import { pluginFixtures } from '../test-support/exec-plugins/fixture.test-support';
import { processesCarrying } from '../test-support/exec-plugins/processes.test-support';
import { ClusterCredentials, type CredentialOptions } from './credentials';
import type { KubeCluster, KubeUser } from './kubeconfig-file';

let dir: string;
let pki: SimPki;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-credentials-'));
  pki = await createPki();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const CLUSTER: KubeCluster = { name: 'c', server: 'https://kube.example.test:6443', skipTLSVerify: false };

function credentialsOf(
  user: Omit<KubeUser, 'name'> | null,
  cluster: Partial<KubeCluster> = {},
  opts: CredentialOptions = {},
) {
  return new ClusterCredentials(
    {
      context: { name: 'ctx', cluster: 'c', user: 'u' },
      cluster: { ...CLUSTER, ...cluster },
      user: user ? { name: 'u', ...user } : null,
    },
    opts,
  );
}

const resolve = (c: ClusterCredentials, signal = new AbortController().signal, timeoutMs = 10_000) =>
  c.resolve(signal, () => signal.aborted && signal.reason?.name === 'TimeoutError', timeoutMs);

async function refusal(promise: Promise<unknown>): Promise<ProblemError> {
  return promise.then(
    () => {
      throw new Error('accepted');
    },
    (err: unknown) => err as ProblemError,
  );
}

/** An exec plugin that counts its runs in `counter` and prints `status` (JSON, evaluated at run time). */
function plugin(counter: string, status: string, extra: Record<string, unknown> = {}) {
  return {
    command: process.execPath,
    args: [
      '-e',
      `require("fs").appendFileSync(${JSON.stringify(counter)}, "x"); process.stdout.write(JSON.stringify({ kind: "ExecCredential", status: ${status} }))`,
    ],
    ...extra,
  };
}
const runs = (counter: string) => (existsSync(counter) ? readFileSync(counter, 'utf8').length : 0);
let counters = 0;
const counterFile = () => join(dir, `runs-${++counters}`);

describe('static credentials', () => {
  it('a context without a user sends no credential', async () => {
    expect(await resolve(credentialsOf(null))).toEqual({ headers: {} });
  });

  it('basic auth sends username and password, an empty password when none is set', async () => {
    const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;
    expect((await resolve(credentialsOf({ username: 'ann', password: 's3cret' }))).headers).toEqual({
      Authorization: basic('ann:s3cret'),
    });
    expect((await resolve(credentialsOf({ username: 'ann' }))).headers.Authorization).toBe(basic('ann:'));
  });

  it('a token is a bearer token, and impersonation goes along with it', async () => {
    expect((await resolve(credentialsOf({ token: 'tok', impersonateUser: 'jane' }))).headers).toEqual({
      Authorization: 'Bearer tok',
      'Impersonate-User': 'jane',
    });
  });

  it('a token file is read trimmed, and not read again within a minute (kubectl re-reads it about once a minute)', async () => {
    const file = join(dir, 'token');
    await writeFile(file, '  first-token\n');
    const c = credentialsOf({ tokenFile: file });
    expect((await resolve(c)).headers.Authorization).toBe('Bearer first-token');
    await writeFile(file, 'rotated-token');
    expect((await resolve(c)).headers.Authorization).toBe('Bearer first-token');
  });

  it('after a 401 the token file is read again at once: a retry only when it holds another token', async () => {
    const file = join(dir, 'rotating-token');
    await writeFile(file, 'first-token\n');
    const c = credentialsOf({ tokenFile: file });
    const first = await resolve(c);
    expect(first.fileToken).toBe('first-token');
    expect(c.invalidate(first)).toBe(false);
    await writeFile(file, 'rotated-token\n');
    expect(c.invalidate(first)).toBe(true);
    expect((await resolve(c)).headers.Authorization).toBe('Bearer rotated-token');
    await rm(file);
    expect(c.invalidate(first)).toBe(false);
    expect(c.invalidate({ headers: {} })).toBe(false);
  });

  it('a token file that cannot be read is unauthorized, naming the file', async () => {
    const missing = join(dir, 'no-token');
    const err = await refusal(resolve(credentialsOf({ tokenFile: missing })));
    expect(err.code).toBe('cluster_unauthorized');
    expect(err.message).toBe(`the kubeconfig's tokenFile ${missing} could not be read (ENOENT)`);
  });
});

describe('exec plugins', () => {
  it("the plugin's token is a bearer token, and concurrent requests share one run", async () => {
    const counter = counterFile();
    const c = credentialsOf({ exec: plugin(counter, '{ token: "from-plugin" }') });
    const answers = await Promise.all(Array.from({ length: 5 }, () => resolve(c)));
    expect(answers.map((a) => a.headers.Authorization)).toEqual(Array(5).fill('Bearer from-plugin'));
    expect(runs(counter)).toBe(1);
    await resolve(c);
    expect(runs(counter)).toBe(1);
  });

  it('an exec stanza under an auth-provider is run too', async () => {
    const counter = counterFile();
    const c = credentialsOf({
      authProvider: { name: 'oidc', config: { exec: plugin(counter, '{ token: "nested" }') } },
    });
    expect((await resolve(c)).headers.Authorization).toBe('Bearer nested');
  });

  it('a credential past its expirationTimestamp is fetched again; one before it is reused', async () => {
    const counter = counterFile();
    const past = credentialsOf({
      exec: plugin(counter, '{ token: "t", expirationTimestamp: new Date(Date.now() - 1000).toISOString() }'),
    });
    await resolve(past);
    await resolve(past);
    expect(runs(counter)).toBe(2);
    const later = counterFile();
    const future = credentialsOf({
      exec: plugin(
        later,
        '{ token: "t", expirationTimestamp: new Date(Date.now() + 3600000).toISOString() }',
      ),
    });
    await resolve(future);
    await resolve(future);
    expect(runs(later)).toBe(1);
  });

  it('a 401 drops exactly the credential it was sent with, and the next request runs the plugin again', async () => {
    const counter = counterFile();
    const c = credentialsOf({ exec: plugin(counter, '{ token: "t" }') });
    const used = await resolve(c);
    expect(c.invalidate(used)).toBe(true);
    await resolve(c);
    expect(runs(counter)).toBe(2);
    // A credential that is no longer the cached one does not drop its successor.
    expect(c.invalidate(used)).toBe(true);
    await resolve(c);
    expect(runs(counter)).toBe(2);
  });

  it('a 401 to a credential that is not a plugin’s cannot be helped by a retry', async () => {
    const c = credentialsOf({ token: 'tok' });
    expect(c.invalidate(await resolve(c))).toBe(false);
  });

  it("a plugin's client certificate is the request's, checked first", async () => {
    const counter = counterFile();
    const status = JSON.stringify({
      clientCertificateData: pki.client.certPem,
      clientKeyData: pki.client.keyPem,
    });
    const used = await resolve(credentialsOf({ exec: plugin(counter, status) }));
    expect(used.headers).toEqual({});
    expect(used.clientPair?.cert.toString()).toBe(pki.client.certPem);
    const bad = JSON.stringify({ clientCertificateData: pki.client.certPem, clientKeyData: 'not a key' });
    const err = await refusal(resolve(credentialsOf({ exec: plugin(counterFile(), bad) })));
    expect(err.message).toMatch(/the client key \(from the credential plugin ".*"\) could not be read/);
  });

  it('an invalid exec stanza is unauthorized, naming the field', async () => {
    const err = await refusal(resolve(credentialsOf({ exec: { args: ['x'] } })));
    expect(err.code).toBe('cluster_unauthorized');
    expect(err.message).toMatch(/^the kubeconfig's exec stanza is invalid: command: /);
    const notAMapping = await refusal(resolve(credentialsOf({ exec: 'aws eks get-token' })));
    expect(notAMapping.message).toMatch(/^the kubeconfig's exec stanza is invalid: exec: /);
  });

  it('a plugin still running at the request deadline is a 504 naming it; the caller giving up is not', async () => {
    const slow = { command: process.execPath, args: ['-e', 'setTimeout(() => {}, 30000)'] };
    const deadline = AbortSignal.timeout(200);
    const late = await refusal(resolve(credentialsOf({ exec: slow }), deadline, 5_000));
    expect(late.code).toBe('cluster_timeout');
    expect(late.message).toBe(`the credential plugin "${process.execPath}" did not answer within 5 s`);
    const gone = new AbortController();
    const pending = resolve(credentialsOf({ exec: slow }), gone.signal, 5_000);
    gone.abort(new DOMException('the client went away', 'AbortError'));
    const err = await pending.then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.name).toBe('AbortError');
  });

  it('a plugin that fails outside its own checks is unauthorized, naming it', async () => {
    const err = await refusal(resolve(credentialsOf({ exec: { command: 'skiff-no-such-plugin' } })));
    expect(err.code).toBe('cluster_unauthorized');
    expect(err.message).toMatch(/^the credential plugin "skiff-no-such-plugin" was not found/);
  });

  it('provideClusterInfo tells the plugin the cluster, with a CA file sent as data', async () => {
    const caFile = join(dir, 'ca.crt');
    await writeFile(caFile, 'CA BYTES');
    const out = join(dir, 'told.json');
    const exec = {
      command: process.execPath,
      args: [
        '-e',
        `require("fs").writeFileSync(${JSON.stringify(out)}, process.env.KUBERNETES_EXEC_INFO); process.stdout.write(JSON.stringify({ kind: "ExecCredential", status: { token: "t" } }))`,
      ],
      provideClusterInfo: true,
    };
    await resolve(
      credentialsOf(
        { exec },
        { caFile, skipTLSVerify: true, tlsServerName: 'kube', proxyUrl: 'http://proxy.test:3128' },
      ),
    );
    expect(JSON.parse(readFileSync(out, 'utf8')).spec.cluster).toEqual({
      server: CLUSTER.server,
      'certificate-authority-data': Buffer.from('CA BYTES').toString('base64'),
      'insecure-skip-tls-verify': true,
      'tls-server-name': 'kube',
      'proxy-url': 'http://proxy.test:3128',
    });
    await resolve(credentialsOf({ exec }, { caFile: join(dir, 'missing-ca') }));
    expect(JSON.parse(readFileSync(out, 'utf8')).spec.cluster).toEqual({ server: CLUSTER.server });
  });
});

describe('the plugin runs behind the credential', () => {
  const { fixture, cleanup } = pluginFixtures(() => dir);
  afterEach(cleanup);

  it('a failing plugin is held off by the backoff the cluster gives, whichever request asks', async () => {
    const plugin = await fixture({ mode: 'fail', message: 'SSO session expired' });
    const c = credentialsOf(
      { exec: plugin.exec },
      {},
      { backoff: { baseMs: 60_000, capMs: 60_000, stableAfterMs: 0 } },
    );
    expect((await refusal(resolve(c))).message).toMatch(/SSO session expired$/);
    expect((await refusal(resolve(c))).message).toMatch(/SSO session expired \(not run again for \d+ s\)$/);
    expect(plugin.runs()).toBe(1);
  });

  it('a client certificate that cannot be used counts as a failed run, held off like any other', async () => {
    const bad = JSON.stringify({ clientCertificateData: pki.client.certPem, clientKeyData: 'not a key' });
    const counter = counterFile();
    const c = credentialsOf(
      { exec: plugin(counter, bad) },
      {},
      { backoff: { baseMs: 60_000, capMs: 60_000, stableAfterMs: 0 } },
    );
    await refusal(resolve(c));
    expect((await refusal(resolve(c))).message).toMatch(/could not be read.*\(not run again for \d+ s\)$/);
    expect(runs(counter)).toBe(1);
  });

  it('close() ends a plugin still running with everything it started, and runs it no more', async () => {
    const plugin = await fixture({ mode: 'ok', token: 't', delayMs: 60_000, helper: { stdio: 'inherit' } });
    const c = credentialsOf({ exec: plugin.exec });
    const pending = refusal(resolve(c, new AbortController().signal, 60_000));
    await eventually(async () => expect(plugin.helpers()).toHaveLength(1), 10_000);
    await c.close();
    expect((await pending).message).toBe('the cluster connection was closed');
    await eventually(async () => expect(processesCarrying(plugin.marker)).toEqual([]), 10_000);
    expect((await refusal(resolve(c))).code).toBe('cluster_unreachable');
    expect(plugin.runs()).toBe(1);
  });
});
