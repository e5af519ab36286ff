import { X509Certificate } from 'node:crypto';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  capturedContent,
  createPki,
  DEFAULT_TOKEN,
  type SimPki,
  type Simulator,
  startSimulator,
} from './index';

let sim: Simulator;
let other: SimPki;
beforeAll(async () => {
  sim = await startSimulator({ tickMs: false, tls: true, tokens: ['extra-token'] });
  other = await createPki();
});
afterAll(async () => sim?.close());

function agent(opts: { ca?: string; cert?: string; key?: string }): Agent {
  return new Agent({ connect: { ...opts } });
}

async function get(path: string, dispatcher: Agent, token?: string) {
  const res = await fetch(sim.url + path, {
    dispatcher,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, body: await res.text() };
}

describe('simulator PKI', () => {
  it('issues a server certificate for the loopback names, signed by its CA', () => {
    const pki = sim.pki!;
    const ca = new X509Certificate(pki.caPem);
    const server = new X509Certificate(pki.serverCertPem);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(ca.ca).toBe(true);
    expect(server.ca).toBe(false);
    expect(new X509Certificate(other.caPem).fingerprint256).not.toBe(ca.fingerprint256);
  });

  it('serves https that a client trusting only its CA accepts', async () => {
    expect(sim.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const trusting = agent({ ca: sim.pki!.caPem });
    try {
      expect((await get('/version', trusting)).status).toBe(200);
    } finally {
      await trusting.destroy();
    }
    const stranger = agent({ ca: other.caPem });
    try {
      await expect(get('/version', stranger)).rejects.toMatchObject({
        // The server sends its CA along with its certificate, as OpenSSL builds the chain.
        cause: {
          code: expect.stringMatching(/^(SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)$/),
        },
      });
    } finally {
      await stranger.destroy();
    }
  });
});

describe('simulator authentication', () => {
  it('takes the user from a client certificate its CA signed', async () => {
    const alice = await sim.pki!.issueClient('alice', ['devs']);
    const a = agent({ ca: sim.pki!.caPem, cert: alice.certPem, key: alice.keyPem });
    try {
      const res = await get('/api/v1/namespaces', a);
      expect(res.status).toBe(200);
      expect(sim.auth.seenUsers.has('alice')).toBe(true);
    } finally {
      await a.destroy();
    }
  });

  it('authenticates nobody with a certificate from another CA, but still reads a token', async () => {
    const mallory = await other.issueClient('mallory');
    const m = agent({ ca: sim.pki!.caPem, cert: mallory.certPem, key: mallory.keyPem });
    try {
      const anonymous = await get('/api/v1/namespaces', m);
      expect(anonymous.status).toBe(401);
      expect(JSON.parse(anonymous.body)).toMatchObject({ kind: 'Status', code: 401 });
      expect((await get('/api/v1/namespaces', m, DEFAULT_TOKEN)).status).toBe(200);
      expect(sim.auth.seenUsers.has('mallory')).toBe(false);
    } finally {
      await m.destroy();
    }
  });

  it('accepts extra tokens, and a removed token no longer', async () => {
    const a = agent({ ca: sim.pki!.caPem });
    try {
      expect((await get('/api/v1/namespaces', a, 'extra-token')).status).toBe(200);
      sim.auth.tokens.delete('extra-token');
      expect((await get('/api/v1/namespaces', a, 'extra-token')).status).toBe(401);
      expect((await get('/api/v1/namespaces', a, 'never-issued')).status).toBe(401);
    } finally {
      sim.auth.tokens.add('extra-token');
      await a.destroy();
    }
  });
});

describe('simulator kubeconfig', () => {
  it('over https names the CA and no insecure flag, and client-node reads it with a client certificate', async () => {
    const yaml = sim.kubeconfigYaml('tls', { user: 'client-cert' });
    const doc = parse(yaml) as {
      clusters: { cluster: Record<string, unknown> }[];
      users: { user: Record<string, string> }[];
    };
    const cluster = doc.clusters[0]!.cluster;
    expect(cluster.server).toBe(sim.url);
    expect(Buffer.from(cluster['certificate-authority-data'] as string, 'base64').toString()).toBe(
      sim.pki!.caPem,
    );
    expect(cluster).not.toHaveProperty('insecure-skip-tls-verify');
    const user = doc.users[0]!.user;
    expect(Buffer.from(user['client-certificate-data']!, 'base64').toString()).toMatch(/BEGIN CERTIFICATE/);
    expect(Buffer.from(user['client-key-data']!, 'base64').toString()).toMatch(/BEGIN PRIVATE KEY/);
    expect(user).not.toHaveProperty('token');

    const kc = new KubeConfig();
    kc.loadFromString(yaml);
    const list = await kc.makeApiClient(CoreV1Api).listNamespace();
    expect(list.items.length).toBeGreaterThan(0);
    expect(sim.auth.seenUsers.has(sim.pki!.client.user)).toBe(true);
  });

  it('writes an exec user as client.authentication.k8s.io/v1, never interactive', () => {
    const yaml = sim.kubeconfigYaml('exec', {
      user: 'exec',
      exec: { command: 'my-plugin', args: ['get-token'], env: { MODE: 'ok' }, installHint: 'install it' },
    });
    const exec = (parse(yaml) as { users: { user: { exec: Record<string, unknown> } }[] }).users[0]!.user
      .exec;
    expect(exec).toEqual({
      apiVersion: 'client.authentication.k8s.io/v1',
      command: 'my-plugin',
      args: ['get-token'],
      env: [{ name: 'MODE', value: 'ok' }],
      installHint: 'install it',
      provideClusterInfo: false,
      interactiveMode: 'Never',
    });
  });

  it('serves captured content over https when asked (kubectl sends no token to an http server), else plain http', async () => {
    const content = capturedContent({
      objects: {},
      events: () => [],
      log: () => undefined,
      podMetrics: () => [],
      nodeMetrics: () => [],
    });
    const frozen = await startSimulator({ content, tls: true });
    const told = await startSimulator({ content });
    try {
      expect(frozen.url).toMatch(/^https:/);
      const doc = parse(frozen.kubeconfigYaml()) as { clusters: { cluster: Record<string, unknown> }[] };
      expect(doc.clusters[0]!.cluster['certificate-authority-data']).toBe(
        Buffer.from(frozen.pki!.caPem).toString('base64'),
      );
      const trusting = agent({ ca: frozen.pki!.caPem });
      try {
        expect(
          (
            await fetch(`${frozen.url}/api/v1/pods`, {
              dispatcher: trusting,
              headers: { authorization: `Bearer ${DEFAULT_TOKEN}` },
            })
          ).status,
        ).toBe(200);
      } finally {
        await trusting.destroy();
      }
      expect(told.url).toMatch(/^http:/);
    } finally {
      await frozen.close();
      await told.close();
    }
  });

  it('over plain http skips verification and carries the token, for tests', async () => {
    const plain = await startSimulator({ tickMs: false });
    try {
      const doc = parse(plain.kubeconfigYaml()) as {
        clusters: { cluster: Record<string, unknown> }[];
        users: { user: Record<string, string> }[];
      };
      expect(plain.url).toMatch(/^http:/);
      expect(plain.pki).toBeUndefined();
      expect(doc.clusters[0]!.cluster['insecure-skip-tls-verify']).toBe(true);
      expect(doc.users[0]!.user.token).toBe(DEFAULT_TOKEN);
      expect(() => plain.kubeconfigYaml('x', { user: 'client-cert' })).toThrow(/tls/);
    } finally {
      await plain.close();
    }
  });
});

describe('simulator close', () => {
  // That close does not wait out the keep-alive is timed by `npm run bench -- --only simulator`,
  // against one request on the connection: a wall-clock limit here fails on a busy machine.
  it('ends idle keep-alive connections', async () => {
    const own = await startSimulator({ tickMs: false, tls: { pki: sim.pki! } });
    const a = new Agent({ connect: { ca: own.pki!.caPem }, keepAliveTimeout: 60_000 });
    try {
      const res = await fetch(`${own.url}/version`, { dispatcher: a });
      await res.text();
      expect(own.connections()).toEqual({ accepted: 1, open: 1 });
      await own.close();
      expect(own.connections().open).toBe(0);
    } finally {
      await own.close();
      await a.destroy();
    }
  });
});
