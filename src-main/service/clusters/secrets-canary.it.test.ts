/**
 * A Secret's values never leave the cluster (clusters/secrets-strip.ts). A canary value is planted
 * in a Secret of the simulator, in its data, its stringData and its last-applied annotation; the
 * Secret is then read through every /v1 GET endpoint that can name it and over IPC, with the log at
 * debug. The canary, as text and as base64, must be in no answer, no log line and no byte of the
 * service's data dir (skiff.db and its WAL). Every place is a row of `places`: the bytes of a
 * snapshot of the cluster, downloaded, are one more row (and its file in the data dir another).
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { DEFAULT_TOKEN } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationSpec } from '../../../src-shared/contract/define';
import type { ResourceWrapper } from '../../../src-shared/contract/models';
import { type OperationName, operations } from '../../../src-shared/contract/operations';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import type { Principal } from '../context';
import { createLogger } from '../logger';
import { pathParamsOf } from '../test-support/contract-fuzz-schemas.test-support';
import { eventually } from '../test-support/eventually.test-support';
import { CLUSTER_ID, type Stack, startStack } from '../test-support/harness.test-support';

const CANARY = `skiff-canary-${randomUUID()}`;
const NAMESPACE = 'shop';
const NAME = 'canary-secret';
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
/** What must be found nowhere: the value, and the value as the apiserver sends it in `data`. */
const NEEDLES = [CANARY, b64(CANARY)];

let stack: Stack;
let principal: Principal;
const logLines: string[] = [];

/** Every place a value could end up, each read as text or bytes once every read below is done. */
interface Place {
  what: string;
  read(): Promise<string | Buffer>;
}
const places: Place[] = [];

beforeAll(async () => {
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  stack = await startStack({ service: { logger: createLogger('debug', sink) } });
  const found = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
  if (!found) throw new Error('the admin session has no principal');
  principal = found;
  const applied = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: NAME, namespace: NAMESPACE },
    data: { password: b64(CANARY) },
    stringData: { token: CANARY },
  });
  const res = await fetch(`${stack.sim.url}/api/v1/namespaces/${NAMESPACE}/secrets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEFAULT_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: NAME,
        namespace: NAMESPACE,
        labels: { canary: 'yes' },
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': applied, team: 'payments' },
      },
      type: 'Opaque',
      data: { password: b64(CANARY), 'empty.key': '' },
      stringData: { token: CANARY },
    }),
  });
  expect(res.status, await res.text()).toBe(201);
});
afterAll(async () => stack?.close());

const proxy = () => `${stack.cluster}/kubernetes-proxy`;

/** Every answer read below, kept for the final check. */
function answered(what: string, text: string): void {
  places.push({ what, read: async () => text });
}

async function get(path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(stack.url + path, { headers: stack.session.headers });
  const text = await res.text();
  answered(`GET ${path}`, `${JSON.stringify([...res.headers])}\n${text}`);
  return { status: res.status, text };
}

/** The values each GET operation's path takes, pointed at the canary Secret. */
const VALUES: Record<string, string> = {
  workspaceId: 'default',
  clusterId: CLUSTER_ID,
  namespace: NAMESPACE,
  resourceType: 'secret',
  resourceName: NAME,
};

/** Every GET the contract has whose path the values above fill: new endpoints join by themselves. */
function secretReaders(): Array<[OperationName, OperationSpec]> {
  return (Object.entries(operations) as Array<[OperationName, OperationSpec]>).filter(
    ([, spec]) =>
      spec.method === 'GET' &&
      !spec.when &&
      pathParamsOf(spec).includes('resourceType') &&
      pathParamsOf(spec).every((p) => p in VALUES),
  );
}

const fill = (spec: OperationSpec) => spec.path.replace(/:(\w+)/g, (_, p: string) => VALUES[p] as string);

describe('a Secret read through Skiff', () => {
  it('the simulator really holds the canary, so its absence below means something', async () => {
    const raw = await fetch(`${stack.sim.url}/api/v1/namespaces/${NAMESPACE}/secrets/${NAME}`, {
      headers: { authorization: `Bearer ${DEFAULT_TOKEN}` },
    }).then((r) => r.text());
    for (const needle of NEEDLES) expect(raw).toContain(needle);
  });

  it('read first from the apiserver (no cache yet): metadata, type and key sizes, no values', async () => {
    const res = await get(`${proxy()}/namespaces/${NAMESPACE}/secret/${NAME}`);
    expect(res.status).toBe(200);
    const wrapper = JSON.parse(res.text) as ResourceWrapper;
    expect(wrapper.resource).toMatchObject({
      kind: 'Secret',
      type: 'Opaque',
      metadata: {
        name: NAME,
        namespace: NAMESPACE,
        labels: { canary: 'yes' },
        annotations: { team: 'payments' },
      },
      keys: [
        { name: 'empty.key', bytes: 0 },
        { name: 'password', bytes: Buffer.byteLength(CANARY) },
        { name: 'token', bytes: Buffer.byteLength(CANARY) },
      ],
    });
    expect(wrapper.resource).not.toHaveProperty('data');
    expect(wrapper.resource).not.toHaveProperty('stringData');
    expect(Object.keys(wrapper.resource.metadata.annotations ?? {})).toEqual(['team']);
  });

  it('read through every GET endpoint that names a resource, lists and single reads, cached and not', async () => {
    const readers = secretReaders();
    expect(readers.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'listResources',
        'getResource',
        'listNamespacedResources',
        'getNamespacedResource',
      ]),
    );
    for (const [name, spec] of readers) {
      const path = fill(spec);
      const res = await get(spec.paginated ? `${path}?limit=1000` : path);
      expect(res.status, `${name}: ${res.text}`).toBeLessThan(500);
    }
    // The lists hold the canary Secret, served from the watch cache.
    const list = await get(`${proxy()}/secret?limit=1000&labelSelector=canary%3Dyes`);
    expect((JSON.parse(list.text) as ResourceWrapper[]).map((w) => w.resource.metadata.name)).toEqual([NAME]);
    const cached = await get(`${proxy()}/namespaces/${NAMESPACE}/secret/${NAME}`);
    expect(JSON.parse(cached.text).resource.keys).toHaveLength(3);
  });

  it('read over IPC: the same four endpoints', async () => {
    const ctx = { principal, client: { via: 'ipc' as const }, signal: new AbortController().signal };
    for (const [name, spec] of secretReaders()) {
      const params = Object.fromEntries(pathParamsOf(spec).map((p) => [p, VALUES[p] as string]));
      const reply = await stack.service
        .invoke(name, { params, query: spec.paginated ? { limit: '1000' } : {}, body: undefined }, ctx)
        .catch((err: unknown) => ({ data: err }));
      answered(`IPC ${name}`, JSON.stringify(reply.data) ?? '');
    }
  });

  it('taken into a snapshot: the capture holds the Secret, and its downloaded file is one more place', async () => {
    const started = await stack.send<SnapshotJob>(
      'POST',
      `/v1/workspaces/default/clusters/${CLUSTER_ID}/snapshots`,
      {
        logs: 'none',
      },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const job = await eventually(async () => {
      const res = await stack.get<SnapshotJob>(`/v1/snapshots/${started.body.snapshotId}`);
      expect(res.body.status).not.toBe('running');
      return res.body;
    }, 60_000);
    expect(job.status, job.error).toBe('done');
    const res = await fetch(`${stack.url}/v1/snapshots/${job.snapshotId}/file`, {
      headers: stack.session.headers,
    });
    expect(res.status).toBe(200);
    const file = Buffer.from(await res.arrayBuffer());
    // The Secret is in the file (its metadata and key names), so the canary's absence means something.
    expect(file.indexOf(NAME, 0, 'utf8')).toBeGreaterThan(-1);
    places.push({ what: 'the snapshot file', read: async () => file });
    answered(`GET /v1/snapshots/${job.snapshotId}`, JSON.stringify(job));
  });

  it('is in no answer, no log line at debug and no byte of the data dir', async () => {
    places.push({ what: 'the log, at debug', read: async () => logLines.join('\n') });
    for (const file of await filesUnder(stack.dataDir))
      places.push({ what: file, read: () => readFile(file) });
    expect(places.some((p) => p.what.endsWith('skiff.db'))).toBe(true);
    expect(logLines.length).toBeGreaterThan(0);
    for (const place of places) {
      const content = await place.read();
      for (const needle of NEEDLES) {
        const at = typeof content === 'string' ? content.indexOf(needle) : content.indexOf(needle, 0, 'utf8');
        expect(at, `${needle} in ${place.what}`).toBe(-1);
      }
    }
  });
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}
