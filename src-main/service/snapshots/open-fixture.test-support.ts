import { createHash } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import type { Pod } from '@skiff/kube-simulator';
import { DEFAULT_TOKEN, type KubeObject, type Simulator } from '@skiff/kube-simulator';
import { RESOURCE_KINDS, RESOURCE_TYPES } from '../../../src-shared/kube/kinds';
import { snapshotKindRows } from '../clusters/discovery/kinds-answer';
import { SNAPSHOT_FORMAT, SNAPSHOT_SCHEMA_VERSION } from './format';
import { SnapshotWriter } from './writer';

/**
 * Test support: a `.skiff` file written from a running simulator's store in the format's layout
 * (through the same writer capture uses), so opening can be tested against known content. Rows
 * go in in a scrambled order, so no answer is right only because the file happened to be sorted.
 */

export interface FixtureOptions {
  context?: string;
  server?: string;
  takenAt?: string;
  /** Events the cluster had already dropped but the history held: written with expired = 1. */
  expired?: (event: KubeObject) => boolean;
  /** Pods whose logs (and previous logs, when they restarted) are captured. */
  logPods?: ReadonlyArray<{ namespace: string; name: string }>;
}

export interface FixtureSummary {
  objects: number;
  liveEvents: number;
  expiredEvents: number;
  logs: number;
}

const scramble = <T>(items: readonly T[], key: (t: T) => string) =>
  [...items]
    .map((t) => ({ t, k: createHash('sha1').update(key(t)).digest('hex') }))
    .sort((a, b) => (a.k < b.k ? -1 : 1))
    .map((x) => x.t);

function bare(obj: KubeObject): string {
  const { managedFields: _m, ...metadata } = obj.metadata;
  return JSON.stringify({ ...obj, metadata });
}

async function fetchText(sim: Simulator, path: string): Promise<string | undefined> {
  const res = await fetch(`${sim.url}${path}`, { headers: { authorization: `Bearer ${DEFAULT_TOKEN}` } });
  const text = await res.text();
  return res.ok ? text : undefined;
}

export async function writeSnapshotFixture(
  sim: Simulator,
  path: string,
  opts: FixtureOptions = {},
): Promise<FixtureSummary> {
  const writer = new SnapshotWriter(`${path}.part`);
  const summary: FixtureSummary = { objects: 0, liveEvents: 0, expiredEvents: 0, logs: 0 };
  try {
    writer.begin();
    // The kinds table of a version-2 file: the nine, as a capture of the demo's nine writes them.
    for (const k of snapshotKindRows()) writer.kind({ ...k, singular: k.resourceType });
    for (const type of RESOURCE_TYPES) {
      const kind = RESOURCE_KINDS[type];
      const objects = sim.store.list(kind.plural);
      for (const o of scramble(objects, (x) => `${x.metadata.namespace}/${x.metadata.name}`)) {
        writer.object(type, o.metadata.namespace ?? '', o.metadata.name, bare(o));
        summary.objects++;
      }
    }
    const events = sim.store.list('events');
    for (const e of scramble(events, (x) => x.metadata.uid)) {
      const expired = opts.expired?.(e) ?? false;
      const last = String(e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp);
      writer.event(e.metadata.uid, e.metadata.namespace ?? '', last, expired, bare(e));
      if (expired) summary.expiredEvents++;
      else summary.liveEvents++;
    }
    for (const { namespace, name } of opts.logPods ?? []) {
      const pod = sim.store.peek('pods', namespace, name) as Pod | undefined;
      if (!pod) continue;
      for (const status of pod.status.containerStatuses ?? []) {
        const base = `/api/v1/namespaces/${namespace}/pods/${name}/log?container=${status.name}&timestamps=true`;
        for (const previous of [false, true]) {
          if (previous && !status.lastState.terminated) continue;
          const text = await fetchText(sim, `${base}${previous ? '&previous=true' : ''}`);
          if (text === undefined) continue;
          const lines = text.split('\n').filter((l) => l !== '');
          writer.log(namespace, name, status.name, previous, lines);
          summary.logs++;
        }
      }
    }
    for (const kind of ['pods', 'nodes'] as const) {
      const text = await fetchText(sim, `/apis/metrics.k8s.io/v1beta1/${kind}`);
      const items = text ? ((JSON.parse(text) as { items: KubeObject[] }).items ?? []) : [];
      for (const m of items)
        writer.metric(
          kind === 'pods' ? 'pod' : 'node',
          m.metadata.namespace ?? '',
          m.metadata.name,
          JSON.stringify(m),
        );
    }
    writer.commit();
    const takenAt = opts.takenAt ?? new Date(sim.store.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    writer.finish(
      {
        format: SNAPSHOT_FORMAT,
        schemaVersion: String(SNAPSHOT_SCHEMA_VERSION),
        skiffVersion: 'test',
        context: opts.context ?? 'fixture',
        server: opts.server ?? 'https://fixture.example:6443',
        kubernetesVersion: 'v1.31.4',
        takenAt,
        finishedAt: takenAt,
        durationMs: '1',
        logLines: '1000',
        logs: 'all',
      },
      [],
      path,
    );
  } catch (err) {
    writer.discard();
    throw err;
  }
  return summary;
}

/** Changes (or with null removes) one meta key of a written file: the bad files of the tests. */
export function alterMeta(path: string, key: string, value: string | null): void {
  const db = new DatabaseSync(path);
  try {
    if (value === null) db.prepare('DELETE FROM meta WHERE key = ?').run(key);
    else db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  } finally {
    db.close();
  }
}
