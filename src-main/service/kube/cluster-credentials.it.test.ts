/**
 * Credentials and TLS as real clusters use them, over HTTPS against the simulator. It runs past
 * 300 lines because each kubeconfig form (CA, client certificate, token, tokenFile,
 * auth-provider, exec plugin) has its own cases and they share one stack helper.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  createPki,
  DEFAULT_TOKEN,
  DEMO_PODS,
  type ExecPluginConfig,
  type SimPki,
  type Simulator,
} from '@skiff/kube-simulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { ResourceWrapper } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import { eventually } from '../test-support/eventually.test-support';
import {
  killCarrying,
  pidsIn,
  processesCarrying,
  uniqueMarker,
} from '../test-support/exec-plugins/processes.test-support';
import {
  CLUSTER_ID,
  CONTEXT,
  type Stack,
  type StackOptions,
  startStack,
} from '../test-support/harness.test-support';

const PLUGIN = join(import.meta.dirname, '../test-support/exec-plugins/credential.mjs');
const { payments } = DEMO_PODS;

let pki: SimPki;
let strangerCa: string;
beforeAll(async () => {
  pki = await createPki();
  strangerCa = (await createPki()).caPem;
});

const stacks: Stack[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.close()));
});

async function tlsStack(opts: Omit<StackOptions, 'simulator'> & { tokens?: string[] } = {}): Promise<Stack> {
  const stack = await startStack({
    ...opts,
    simulator: { tls: { pki }, ...(opts.tokens ? { tokens: opts.tokens } : {}) },
  });
  stacks.push(stack);
  return stack;
}

const podPath = (stack: Stack) =>
  `${stack.cluster}/kubernetes-proxy/namespaces/${payments.namespace}/pod/${payments.name}`;
const listPath = (stack: Stack) => `${stack.cluster}/kubernetes-proxy/namespaces/${payments.namespace}/pod`;

/** The names the service lists and the names the simulator holds must be the same. */
async function expectListAndGet(stack: Stack): Promise<void> {
  const list = await stack.get<ResourceWrapper[]>(`${listPath(stack)}?limit=1000`);
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  const direct = await stack.direct().listNamespacedPod({ namespace: payments.namespace });
  expect(list.body.map((w) => w.resource.metadata.name).sort()).toEqual(
    direct.items.map((p) => p.metadata?.name).sort(),
  );
  const one = await stack.get<ResourceWrapper>(podPath(stack));
  expect(one.status, JSON.stringify(one.body)).toBe(200);
  expect(one.body.resource.metadata.name).toBe(payments.name);
}

function expectProblem(
  res: { status: number; contentType: string; body: unknown },
  status: number,
  code: string,
) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.contentType).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status, code });
  return res.body as Problem;
}

/** Swaps one base64 field of a kubeconfig for another value. */
function withField(yaml: string, field: string, value: string): string {
  const re = new RegExp(`${field}: "[^"]*"`);
  expect(yaml).toMatch(re);
  return yaml.replace(re, `${field}: "${Buffer.from(value).toString('base64')}"`);
}

describe('over HTTPS with the simulator CA', () => {
  it('lists and gets pods with certificate-authority-data and a bearer token', async () => {
    const stack = await tlsStack();
    expect(stack.sim.url).toMatch(/^https:/);
    await expectListAndGet(stack);
    expect(stack.sim.auth.seenUsers.has(pki.client.user)).toBe(false);
  });

  it('lists and gets pods with client-certificate-data and client-key-data alone', async () => {
    const stack = await tlsStack({
      kubeconfig: (sim) => sim.kubeconfigYaml(CONTEXT, { user: 'client-cert' }),
    });
    // Only the certificate can authenticate the service now (the direct client keeps the token).
    stack.sim.auth.seenUsers.clear();
    const one = await stack.get<ResourceWrapper>(podPath(stack));
    expect(one.status).toBe(200);
    expect([...stack.sim.auth.seenUsers]).toEqual([pki.client.user]);
    await expectListAndGet(stack);
  });

  it('a CA that did not sign the cluster certificate is a 502 cluster_unreachable naming the problem', async () => {
    const stack = await tlsStack({
      kubeconfig: (sim) => withField(sim.kubeconfigYaml(CONTEXT), 'certificate-authority-data', strangerCa),
    });
    const one = expectProblem(await stack.get(podPath(stack)), 502, 'cluster_unreachable');
    expect(one.detail).toMatch(/TLS: the cluster's certificate is not signed by the certificate authority/);
    expect(one.detail).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
    expect((await stack.get(listPath(stack))).status).toBe(502);
  });

  it('a certificate-authority-data that holds no certificate is a 502 naming it', async () => {
    const stack = await tlsStack({
      kubeconfig: (sim) => withField(sim.kubeconfigYaml(CONTEXT), 'certificate-authority-data', 'not a CA'),
    });
    const res = expectProblem(await stack.get(podPath(stack)), 502, 'cluster_unreachable');
    expect(res.detail).toMatch(/certificate-authority-data\) holds no PEM certificate/);
  });

  it('a client-key-data that is not a key is a 502 cluster_unreachable, not a 500', async () => {
    const stack = await tlsStack({
      kubeconfig: (sim) =>
        withField(sim.kubeconfigYaml(CONTEXT, { user: 'client-cert' }), 'client-key-data', 'not a key'),
    });
    const one = expectProblem(await stack.get(podPath(stack)), 502, 'cluster_unreachable');
    expect(one.detail).toMatch(
      /the client key \(client-certificate-data\/client-key-data\) could not be read/,
    );
    expect((await stack.get(listPath(stack))).status).toBe(502);
  });

  it('a client key of another certificate is a 502 saying they do not match', async () => {
    const other = await pki.issueClient('someone-else');
    const stack = await tlsStack({
      kubeconfig: (sim) =>
        withField(sim.kubeconfigYaml(CONTEXT, { user: 'client-cert' }), 'client-key-data', other.keyPem),
    });
    const res = expectProblem(await stack.get(podPath(stack)), 502, 'cluster_unreachable');
    expect(res.detail).toMatch(/do not match/);
  });

  it('a revoked token is a 502 cluster_unauthorized', async () => {
    const stack = await tlsStack();
    expect((await stack.get(podPath(stack))).status).toBe(200);
    stack.sim.auth.tokens.delete(DEFAULT_TOKEN);
    const res = expectProblem(await stack.get(podPath(stack)), 502, 'cluster_unauthorized');
    expect(res.detail).toMatch(/Unauthorized/);
  });
});

/** The same kubeconfig with the user's credential replaced by `user`. */
function withUser(yaml: string, user: Record<string, unknown>): string {
  const doc = parse(yaml) as { users: { user: Record<string, unknown> }[] };
  doc.users[0]!.user = user;
  return stringify(doc);
}

describe('token files and auth providers', () => {
  it("reads a relative tokenFile from the kubeconfig's own folder, as kubectl does", async () => {
    const stack = await tlsStack({
      kubeconfig: (sim) => withUser(sim.kubeconfigYaml(CONTEXT), { tokenFile: 'token' }),
    });
    await writeFile(join(dirname(stack.kubeconfigPath), 'token'), `${DEFAULT_TOKEN}\n`);
    await expectListAndGet(stack);
  });

  it('a tokenFile that cannot be read is a 502 cluster_unauthorized naming the file', async () => {
    const stack = await tlsStack({
      kubeconfig: (sim) => withUser(sim.kubeconfigYaml(CONTEXT), { tokenFile: 'no-such-token' }),
    });
    const res = expectProblem(await stack.get(podPath(stack)), 502, 'cluster_unauthorized');
    expect(res.detail).toContain(join(dirname(stack.kubeconfigPath), 'no-such-token'));
    expect(res.detail).toMatch(/ENOENT/);
  });

  it("an auth-provider user gets its token from client-node's authenticator", async () => {
    const expiry = new Date(Date.now() + 3_600_000).toISOString();
    const stack = await tlsStack({
      kubeconfig: (sim) =>
        withUser(sim.kubeconfigYaml(CONTEXT), {
          'auth-provider': { name: 'gcp', config: { 'access-token': DEFAULT_TOKEN, expiry } },
        }),
    });
    await expectListAndGet(stack);
    stack.sim.auth.tokens.delete(DEFAULT_TOKEN);
    // A kind with no watch running, so the read has to reach the apiserver with the token.
    expectProblem(
      await stack.get(`${stack.cluster}/kubernetes-proxy/namespace/kube-system`),
      502,
      'cluster_unauthorized',
    );
  });
});

describe('exec credential plugins', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skiff-exec-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const control = (c: Record<string, unknown>) => writeFile(join(dir, 'control.json'), JSON.stringify(c));
  const runs = async () =>
    (await readFile(join(dir, 'runs'), 'utf8').catch(() => ''))
      .split('\n')
      .filter((l) => l !== '')
      .map(Number);
  const execUser = (exec: Partial<ExecPluginConfig> = {}) => ({
    kubeconfig: (sim: Simulator) =>
      sim.kubeconfigYaml(CONTEXT, {
        user: 'exec',
        exec: {
          command: process.execPath,
          args: [PLUGIN],
          env: { SKIFF_PLUGIN_CONTROL: join(dir, 'control.json'), SKIFF_PLUGIN_RUNS: join(dir, 'runs') },
          ...exec,
        },
      }),
  });
  /** A stack whose cluster accepts the plugin's tokens and no longer the kubeconfig's default one. */
  async function execStack(tokens: string[], opts: Omit<StackOptions, 'simulator'> = {}) {
    const stack = await tlsStack({ ...execUser(), ...opts, tokens });
    stack.sim.auth.tokens.delete(DEFAULT_TOKEN);
    return stack;
  }

  it('lists and gets pods with the token a plugin prints, one run for 50 concurrent requests', async () => {
    await control({ mode: 'ok', token: 'exec-token-1', delayMs: 300 });
    const stack = await execStack(['exec-token-1']);
    expect(await runs()).toEqual([]);
    const answers = await Promise.all(Array.from({ length: 50 }, () => stack.get(podPath(stack))));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(await runs()).toHaveLength(1);
    stack.sim.auth.tokens.add(DEFAULT_TOKEN); // for the direct client's comparison
    await expectListAndGet(stack);
    expect(await runs()).toHaveLength(1);
  });

  it('a failing plugin is a 502 cluster_unauthorized with its own message, held for the backoff, after which a request recovers', async () => {
    await control({ mode: 'fail', message: 'error: the SSO session has expired, run sso login' });
    // Hold-offs of 2 to 4 s: long enough that the requests below come within the first.
    const stack = await execStack(['exec-token-2'], { service: { watch: { baseMs: 4_000, capMs: 4_000 } } });
    const res = expectProblem(await stack.get(podPath(stack)), 502, 'cluster_unauthorized');
    expect(res.detail).toContain(`the credential plugin "${process.execPath}" failed (exit code 1)`);
    expect(res.detail).toContain('error: the SSO session has expired, run sso login');
    // Asked again within the hold-off, the plugin is not run: its last failure answers at once,
    // saying when it runs next.
    const list = await stack.get(listPath(stack));
    expect(expectProblem(list, 502, 'cluster_unauthorized').detail).toMatch(
      /the SSO session has expired, run sso login \(not run again for [1-4] s\)$/,
    );
    expect(list.headers.get('retry-after')).toMatch(/^[1-4]$/);
    expect(await runs()).toHaveLength(1);

    await control({ mode: 'ok', token: 'exec-token-2' });
    await eventually(async () => expect((await stack.get(podPath(stack))).status).toBe(200), 15_000);
  });

  it('a plugin slower than the cluster timeout is a 504 within it, and is killed', async () => {
    await control({ mode: 'ok', token: 'exec-token-3', delayMs: 60_000 });
    const stack = await execStack(['exec-token-3'], { service: { timeoutMs: 1_500 } });
    // The plugin would answer after a minute, past this test's own timeout: only the deadline can
    // give this answer, and the problem names it.
    const res = expectProblem(await stack.get(podPath(stack)), 504, 'cluster_timeout');
    expect(res.detail).toBe(`the credential plugin "${process.execPath}" did not answer within 1.5 s`);
    const [pid] = await runs();
    expect(pid).toBeGreaterThan(0);
    await eventually(async () => expect(() => process.kill(pid!, 0)).toThrow(/ESRCH/), 10_000);
  });

  describe('what a plugin starts', () => {
    const markers: string[] = [];
    afterEach(() => {
      for (const marker of markers.splice(0)) killCarrying(marker);
    });
    /** The plugin, carrying a marker, with a helper child that never exits and keeps its stdout. */
    const withHelper = async (c: Record<string, unknown>) => {
      const marker = uniqueMarker();
      markers.push(marker);
      await control({ ...c, helper: { marker, stdio: 'inherit' } });
      const user = execUser({
        args: [PLUGIN, marker],
        env: {
          SKIFF_PLUGIN_CONTROL: join(dir, 'control.json'),
          SKIFF_PLUGIN_RUNS: join(dir, 'runs'),
          SKIFF_PLUGIN_HELPERS: join(dir, 'helpers'),
        },
      });
      return { marker, user, helpers: () => pidsIn(join(dir, 'helpers')) };
    };
    const nothingLeft = (marker: string) =>
      eventually(async () => expect(processesCarrying(marker)).toEqual([]), 15_000);

    it('a plugin that answers leaves nothing running, though its helper kept its stdout open', async () => {
      const { marker, user, helpers } = await withHelper({ mode: 'ok', token: 'helped' });
      const stack = await execStack(['helped'], { ...user, service: { timeoutMs: 15_000 } });
      const answers = await Promise.all(Array.from({ length: 5 }, () => stack.get(podPath(stack))));
      expect(answers.map((a) => a.status)).toEqual(Array(5).fill(200));
      expect(await runs()).toHaveLength(1);
      expect(helpers()).toHaveLength(1);
      await nothingLeft(marker);
    });

    it('a plugin that times out is ended with everything it started', async () => {
      const { marker, user, helpers } = await withHelper({ mode: 'ok', token: 't', delayMs: 60_000 });
      const stack = await execStack(['t'], { ...user, service: { timeoutMs: 5_000 } });
      expectProblem(await stack.get(podPath(stack)), 504, 'cluster_timeout');
      // The helper was up before the deadline, so the timeout had something to end.
      expect(helpers()).toHaveLength(1);
      await nothingLeft(marker);
    });

    it('closing the service ends a plugin still running, with everything it started', async () => {
      const { marker, user, helpers } = await withHelper({ mode: 'ok', token: 't', delayMs: 60_000 });
      const stack = await execStack(['t'], { ...user, service: { timeoutMs: 60_000 } });
      const pending = stack.get(podPath(stack)).catch(() => undefined);
      await eventually(async () => expect(helpers()).toHaveLength(1), 10_000);
      stacks.splice(stacks.indexOf(stack), 1);
      await stack.close();
      await pending;
      await nothingLeft(marker);
    });
  });

  it('an idle cluster with a failing plugin runs it no more often than the backoff, and not at all once its caches are swept', async () => {
    await control({ mode: 'fail', message: 'no SSO session' });
    const backoffMs = 2_000;
    const stack = await execStack([], {
      service: {
        watch: { baseMs: backoffMs, capMs: backoffMs },
        // Nothing recorded: a recorded kind (changes, kept logs) keeps its watch through the sweep.
        eventHistory: { record: 'off' },
        changeHistory: { record: 'off' },
      },
    });
    const kinds = ['pod', 'service', 'deployment', 'statefulset', 'daemonset', 'job', 'cronjob'];
    const started = Date.now();
    // Nine watch caches start, and each retries on its own after its failure, with nobody asking.
    const first = await Promise.all([
      ...kinds.map((k) =>
        stack.get(`${stack.cluster}/kubernetes-proxy/namespaces/${payments.namespace}/${k}`),
      ),
      stack.get(`${stack.cluster}/kubernetes-proxy/namespace`),
      stack.get(`${stack.cluster}/kubernetes-proxy/node`),
    ]);
    for (const res of first) expectProblem(res, 502, 'cluster_unauthorized');
    await new Promise((r) => setTimeout(r, 5 * backoffMs));
    const ran = (await runs()).length;
    const elapsed = Date.now() - started;
    // The plugin's runs are at least half a backoff apart (the jitter's floor), whoever asks.
    const allowed = 1 + Math.floor(elapsed / (backoffMs / 2));
    expect(ran, `${ran} runs in ${elapsed} ms`).toBeGreaterThanOrEqual(2);
    expect(ran, `${ran} runs in ${elapsed} ms`).toBeLessThanOrEqual(allowed);

    const cluster = stack.service.registry.cluster('default', CLUSTER_ID, {
      accountId: 'test',
      workspaces: 'all',
    });
    await cluster.sweep(0);
    const afterSweep = (await runs()).length;
    await new Promise((r) => setTimeout(r, 2 * backoffMs));
    expect((await runs()).length).toBe(afterSweep);
  }, 60_000);

  it('a plugin missing from the PATH is a 502 naming it, with its install hint', async () => {
    const stack = await tlsStack(
      execUser({
        command: 'skiff-no-such-credential-plugin',
        args: [],
        installHint: 'Install it with brew.',
      }),
    );
    const res = expectProblem(await stack.get(podPath(stack)), 502, 'cluster_unauthorized');
    expect(res.detail).toBe(
      'the credential plugin "skiff-no-such-credential-plugin" was not found (is it installed and on the PATH?). Install it with brew.',
    );
  });

  it('uses the client certificate a plugin returns for TLS', async () => {
    const identity = await pki.issueClient('exec-cert-user');
    await control({ mode: 'ok', clientCertificateData: identity.certPem, clientKeyData: identity.keyPem });
    const stack = await execStack([]);
    stack.sim.auth.seenUsers.clear();
    expect((await stack.get(podPath(stack))).status).toBe(200);
    expect([...stack.sim.auth.seenUsers]).toEqual(['exec-cert-user']);
  });

  it('a plugin token the cluster stops accepting is fetched again once, as client-go does', async () => {
    await control({ mode: 'ok', token: 'token-a' });
    const stack = await execStack(['token-a']);
    expect((await stack.get(podPath(stack))).status).toBe(200);
    expect(await runs()).toHaveLength(1);

    stack.sim.auth.tokens.delete('token-a');
    stack.sim.auth.tokens.add('token-b');
    await control({ mode: 'ok', token: 'token-b' });
    expect((await stack.get(podPath(stack))).status).toBe(200);
    expect(await runs()).toHaveLength(2);

    // A fresh token the cluster also refuses: one more run, then the refusal, not a loop.
    stack.sim.auth.tokens.delete('token-b');
    expectProblem(await stack.get(podPath(stack)), 502, 'cluster_unauthorized');
    expect(await runs()).toHaveLength(3);
  });

  it('a credential with an expirationTimestamp is used until then, and fetched again after', async () => {
    const stack = await execStack(['token-e']);
    await control({
      mode: 'ok',
      token: 'token-e',
      expirationTimestamp: new Date(Date.now() + 2_000).toISOString(),
    });
    expect((await stack.get(podPath(stack))).status).toBe(200);
    expect((await stack.get(podPath(stack))).status).toBe(200);
    expect(await runs()).toHaveLength(1);
    await eventually(async () => {
      expect((await stack.get(podPath(stack))).status).toBe(200);
      expect(await runs()).toHaveLength(2);
    }, 5_000);
  });

  it('speaks the apiVersion the kubeconfig names, and refuses an answer in another one', async () => {
    await control({ mode: 'ok', token: 'token-v' });
    const beta = 'client.authentication.k8s.io/v1beta1';
    const stack = await execStack(['token-v'], execUser({ apiVersion: beta }));
    // The fixture answers in the apiVersion KUBERNETES_EXEC_INFO asks for.
    expect((await stack.get(podPath(stack))).status).toBe(200);
    const other = await execStack(['token-v']);
    await control({ mode: 'ok', token: 'token-v', apiVersion: beta });
    const res = expectProblem(await other.get(podPath(other)), 502, 'cluster_unauthorized');
    expect(res.detail).toContain(
      `answered with ${beta}, but the kubeconfig asks for client.authentication.k8s.io/v1`,
    );
  });
});

afterAll(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.close()));
});
