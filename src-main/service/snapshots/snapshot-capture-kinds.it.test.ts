/**
 * A capture holds every kind the cluster serves (issue 23 §5), over real HTTP against the
 * simulator (about thirty built-in kinds and cert-manager's two CRDs): the file's kinds table is
 * the cluster's discovery, each kind's objects are the cluster's, the CRDs and their objects are
 * in it, and a Secret keeps no value (a canary planted through the simulator is in no byte of the
 * file). `kinds` restricts a capture and names are refused as resourceType refuses them. The
 * file opens through the service, and so does the same file made version 1.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TOKEN } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedKind } from '../../../src-shared/contract/kinds-operations';
import type { Cluster } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import type { SnapshotJob } from '../../../src-shared/contract/snapshot-models';
import { SNAPSHOT_MEDIA_TYPE } from '../../../src-shared/contract/snapshot-operations';
import { RESOURCE_TYPES } from '../../../src-shared/kube/kinds';
import { ProblemError } from '../errors';
import { CLUSTER_ID, collectAll, type Stack, startStack } from '../test-support/harness.test-support';
import { listPath } from './capture-kinds';
import { alterFile, toVersion1 } from './skiff-file.test-support';
import {
  download,
  finished,
  gapsOf,
  readSnapshot,
  SNAPSHOTS,
  startCapture,
} from './snapshot-capture.test-support';

const CANARY = `skiff-canary-${randomUUID()}`;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

let stack: Stack;
let dir: string;
let served: ServedKind[];
let file: string;

async function simList(k: ServedKind): Promise<Array<{ metadata: { namespace?: string; name: string } }>> {
  const res = await fetch(stack.sim.url + listPath(k), {
    headers: { authorization: `Bearer ${DEFAULT_TOKEN}` },
  });
  expect(res.status, listPath(k)).toBe(200);
  return ((await res.json()) as { items: Array<{ metadata: { namespace?: string; name: string } }> }).items;
}

async function capture(body: unknown, name: string): Promise<string> {
  const job = await finished(stack, (await startCapture(stack, body)).snapshotId, 60_000);
  expect(job.status, job.error).toBe('done');
  return (await download(stack, job.snapshotId, await mkdtemp(join(dir, `${name}-`)))).path;
}

/** Opens a file through the service (POST /v1/snapshots), answering the cluster. */
async function open(path: string): Promise<Cluster> {
  const res = await fetch(`${stack.url}/v1/snapshots`, {
    method: 'POST',
    headers: { ...stack.session.headers, 'content-type': SNAPSHOT_MEDIA_TYPE },
    body: await readFile(path),
  });
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return JSON.parse(text) as Cluster;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-capture-kinds-'));
  stack = await startStack();
  const planted = await fetch(`${stack.sim.url}/api/v1/namespaces/shop/secrets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEFAULT_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'canary-secret',
        namespace: 'shop',
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
            stringData: { token: CANARY },
          }),
        },
      },
      type: 'Opaque',
      data: { password: b64(CANARY) },
      stringData: { token: CANARY },
    }),
  });
  expect(planted.status, await planted.text()).toBe(201);
  served = await collectAll<ServedKind>(stack, `${stack.cluster}/kinds?limit=1000`);
  file = await capture({ logs: 'none' }, 'full');
});
afterAll(async () => {
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface KindRow {
  resource_type: string;
  grp: string;
  version: string;
  resource: string;
  singular: string;
  kind: string;
  namespaced: number;
  verbs: string;
  short_names: string;
  categories: string;
  columns: string | null;
}

describe('a capture of every kind', () => {
  it('holds the discovery in its kinds table: every kind the cluster serves, as /kinds answers it', () => {
    expect(served.length).toBeGreaterThan(25);
    const rows = readSnapshot(file, (db) =>
      db.prepare('SELECT * FROM kinds ORDER BY resource_type').all(),
    ) as unknown as KindRow[];
    expect(rows.map((r) => r.resource_type)).toEqual(served.map((k) => k.resourceType));
    for (const [i, k] of served.entries()) {
      const r = rows[i]!;
      expect({
        resourceType: r.resource_type,
        plural: r.resource,
        kind: r.kind,
        group: r.grp,
        version: r.version,
        namespaced: r.namespaced === 1,
        shortNames: JSON.parse(r.short_names),
        categories: JSON.parse(r.categories),
        verbs: JSON.parse(r.verbs),
        ...(r.columns === null ? {} : { columns: JSON.parse(r.columns) }),
      }).toEqual(k);
    }
    const certificate = rows.find((r) => r.resource_type === 'certificate')!;
    expect(JSON.parse(certificate.columns!).map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['Ready', 'Secret']),
    );
  });

  it('holds every object of every kind as the cluster lists it, the events in their own table', async () => {
    const events = served.filter((k) => k.plural === 'events');
    expect(events.length).toBeGreaterThan(0);
    const inFile = readSnapshot(file, (db) => {
      const kinds = db
        .prepare('SELECT DISTINCT kind FROM objects')
        .all()
        .map((r) => r.kind as string);
      const rows = db.prepare('SELECT kind, namespace, name FROM objects').all() as Array<{
        kind: string;
        namespace: string;
        name: string;
      }>;
      const of = (kind: string) =>
        rows
          .filter((r) => r.kind === kind)
          .map((r) => `${r.namespace}/${r.name}`)
          .sort();
      return { kinds, of, events: (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n };
    });
    expect(inFile.events).toBeGreaterThan(0);
    for (const k of events) expect(inFile.kinds).not.toContain(k.resourceType);
    let objectKinds = 0;
    for (const k of served.filter((s) => s.plural !== 'events')) {
      const listed = (await simList(k)).map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`).sort();
      expect(inFile.of(k.resourceType), k.resourceType).toEqual(listed);
      if (listed.length > 0) objectKinds++;
    }
    // The demo fills far more than the nine.
    expect(objectKinds).toBeGreaterThan(20);
    for (const t of RESOURCE_TYPES) expect(inFile.kinds).toContain(t);
    for (const t of [
      'configmap',
      'secret',
      'persistentvolumeclaim',
      'ingress',
      'replicaset',
      'customresourcedefinition',
      'certificate',
      'clusterissuer',
    ])
      expect(inFile.kinds, t).toContain(t);
  });

  it('holds the CRDs and their objects whole: the Certificate with its conditions', () => {
    readSnapshot(file, (db) => {
      const crds = db
        .prepare("SELECT name FROM objects WHERE kind = 'customresourcedefinition'")
        .all()
        .map((r) => r.name);
      expect(crds).toEqual(
        expect.arrayContaining(['certificates.cert-manager.io', 'clusterissuers.cert-manager.io']),
      );
      const cert = JSON.parse(
        (
          db
            .prepare("SELECT json FROM objects WHERE kind = 'certificate' AND name = 'grafana-tls'")
            .get() as { json: string }
        ).json,
      );
      expect(cert).toMatchObject({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate' });
      expect(cert.metadata).not.toHaveProperty('managedFields');
      expect(cert.status.conditions).toContainEqual(
        expect.objectContaining({ type: 'Ready', status: 'False' }),
      );
    });
  });

  it('keeps of a Secret its key names and sizes: the canary is in no byte of the file', async () => {
    readSnapshot(file, (db) => {
      const secret = JSON.parse(
        (
          db
            .prepare(
              "SELECT json FROM objects WHERE kind = 'secret' AND namespace = 'shop' AND name = 'canary-secret'",
            )
            .get() as {
            json: string;
          }
        ).json,
      );
      expect(secret).not.toHaveProperty('data');
      expect(secret).not.toHaveProperty('stringData');
      expect(secret.keys).toEqual([
        { name: 'password', bytes: Buffer.byteLength(CANARY) },
        { name: 'token', bytes: Buffer.byteLength(CANARY) },
      ]);
      expect(secret.metadata.annotations ?? {}).not.toHaveProperty(
        'kubectl.kubernetes.io/last-applied-configuration',
      );
    });
    const bytes = await readFile(file);
    for (const needle of [CANARY, b64(CANARY)]) expect(bytes.indexOf(needle, 0, 'utf8'), needle).toBe(-1);
  });

  it('has no gap but the logs it was told not to take, none at all', () => {
    readSnapshot(file, (db) => expect(gapsOf(db)).toEqual([]));
  });
});

describe('kinds: a capture of some kinds', () => {
  it('takes only the kinds named (any case, bare or qualified), and the events as always', async () => {
    const path = await capture(
      { logs: 'none', kinds: ['ConfigMap', 'certificate.cert-manager.io', 'pod'] },
      'some',
    );
    readSnapshot(path, (db) => {
      const kinds = db
        .prepare('SELECT DISTINCT kind FROM objects ORDER BY kind')
        .all()
        .map((r) => r.kind);
      expect(kinds).toEqual(['certificate', 'configmap', 'pod']);
      const table = db
        .prepare('SELECT resource_type FROM kinds ORDER BY resource_type')
        .all()
        .map((r) => r.resource_type);
      const events = served.filter((k) => k.plural === 'events').map((k) => k.resourceType);
      expect(table).toEqual([...kinds, ...events].sort());
      expect((db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n).toBeGreaterThan(0);
      expect(gapsOf(db)).toEqual([]);
    });
  });

  it('refuses a name the cluster does not serve, a plural, a short name and events: 400 invalid_resource_type, no job', async () => {
    for (const [name, says] of [
      ['gizmo', /unknown resourceType "gizmo"/],
      ['configmaps', /did you mean configmap\?/],
      ['cm', /did you mean configmap\?/],
      ['event', /event/],
    ] as const) {
      const res = await stack.send<Problem>('POST', SNAPSHOTS, { kinds: ['pod', name] });
      expect(res.status, name).toBe(400);
      expect(res.body.code).toBe('invalid_resource_type');
      expect(res.body.detail, name).toMatch(says);
    }
  });

  it('over IPC as over HTTP: a name it does not serve is 400 invalid_resource_type, names it serves start a job', async () => {
    const principal = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
    const ctx = {
      principal: principal!,
      client: { via: 'ipc' as const },
      signal: new AbortController().signal,
    };
    const params = { workspaceId: 'default', clusterId: CLUSTER_ID };
    const refused = await stack.service
      .invoke('createSnapshot', { params, query: {}, body: { kinds: ['configmaps'] } }, ctx)
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(refused).toBeInstanceOf(ProblemError);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_resource_type' });
    const started = await stack.service.invoke(
      'createSnapshot',
      { params, query: {}, body: { kinds: ['certificate'], logs: 'none' } },
      ctx,
    );
    const job = await finished(stack, (started.data as SnapshotJob).snapshotId, 60_000);
    expect(job.status, job.error).toBe('done');
    const path = (await download(stack, job.snapshotId, await mkdtemp(join(dir, 'ipc-')))).path;
    readSnapshot(path, (db) =>
      expect(
        db
          .prepare('SELECT DISTINCT kind FROM objects')
          .all()
          .map((r) => r.kind),
      ).toEqual(['certificate']),
    );
  });

  it('refuses a kinds list that is empty, too long or not names: 400 by the contract', async () => {
    for (const kinds of [[], [''], Array.from({ length: 1001 }, (_, i) => `k${i}`), 'pod', [7]]) {
      const res = await stack.send<Problem>('POST', SNAPSHOTS, { kinds });
      expect(res.status, JSON.stringify(kinds).slice(0, 40)).toBe(400);
    }
  });
});

describe('opening', () => {
  it('a version-2 capture opens through the service, its nine served', async () => {
    const cluster = await open(file);
    const pods = await collectAll(
      stack,
      `/v1/workspaces/default/observability/${cluster.clusterId}/kubernetes-proxy/pod?limit=1000`,
    );
    expect(pods).toHaveLength(stack.sim.store.count('pods'));
  });

  it('the same capture as a version-1 file (no kinds table, the nine only) still opens', async () => {
    const v1 = join(dir, 'v1.skiff');
    await rm(v1, { force: true });
    await import('node:fs/promises').then((fs) => fs.copyFile(file, v1));
    toVersion1(v1);
    alterFile(
      v1,
      `DELETE FROM objects WHERE kind NOT IN (${RESOURCE_TYPES.map((t) => `'${t}'`).join(', ')}); UPDATE meta SET value = 'v1-copy' WHERE key = 'context'`,
    );
    const cluster = await open(v1);
    expect(cluster.status).toBe('snapshot');
    const pods = await collectAll(
      stack,
      `/v1/workspaces/default/observability/${cluster.clusterId}/kubernetes-proxy/pod?limit=1000`,
    );
    expect(pods).toHaveLength(stack.sim.store.count('pods'));
  });
});
