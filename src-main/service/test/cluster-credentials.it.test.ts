/**
 * Credentials and TLS as real clusters use them, over HTTPS against the simulator. It runs past
 * 300 lines because each kubeconfig form (CA, client certificate, token, tokenFile,
 * auth-provider, exec plugin) has its own cases and they share one stack helper.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { ResourceWrapper } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import {
  createPki,
  DEFAULT_TOKEN,
  DEMO_PODS,
  type ExecPluginConfig,
  type SimPki,
  type Simulator,
} from '../../simulator/index';
import { eventually } from './eventually';
import { CONTEXT, type Stack, type StackOptions, startStack } from './harness';

const PLUGIN = join(import.meta.dirname, 'exec-plugins', 'credential.mjs');
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

  it('a failing plugin is a 502 cluster_unauthorized with its own message, and the next request recovers', async () => {
    await control({ mode: 'fail', message: 'error: the SSO session has expired, run sso login' });
    const stack = await execStack(['exec-token-2']);
    const res = expectProblem(await stack.get(podPath(stack)), 502, 'cluster_unauthorized');
    expect(res.detail).toContain(`the credential plugin "${process.execPath}" failed (exit code 1)`);
    expect(res.detail).toContain('error: the SSO session has expired, run sso login');
    const list = expectProblem(await stack.get(listPath(stack)), 502, 'cluster_unauthorized');
    expect(list.detail).toContain('the SSO session has expired');

    await control({ mode: 'ok', token: 'exec-token-2' });
    expect((await stack.get(podPath(stack))).status).toBe(200);
  });

  it('a plugin slower than the cluster timeout is a 504 within it, and is killed', async () => {
    await control({ mode: 'ok', token: 'exec-token-3', delayMs: 60_000 });
    const stack = await execStack(['exec-token-3'], { service: { timeoutMs: 1_500 } });
    const started = Date.now();
    const res = expectProblem(await stack.get(podPath(stack)), 504, 'cluster_timeout');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(res.detail).toBe(`the credential plugin "${process.execPath}" did not answer within 1.5 s`);
    const [pid] = await runs();
    expect(pid).toBeGreaterThan(0);
    await eventually(async () => expect(() => process.kill(pid!, 0)).toThrow(/ESRCH/), 3_000);
  });

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
