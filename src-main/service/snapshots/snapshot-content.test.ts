/**
 * A `.skiff` file served by a frozen simulator (snapshot-content.ts, for `--snapshot-kubeconfig`)
 * answers what the captured cluster answered: the nine kinds, the live events, the captured logs
 * and the metrics, over real HTTP; and the file is read only for what is asked, kind by kind.
 */
import {
  DEFAULT_TOKEN,
  DEMO_PODS,
  type KubeObject,
  type Simulator,
  startSimulator,
} from '@skiff/kube-simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkSnapshot } from './inspect';
import { writeSnapshotFixture } from './open-fixture.test-support';
import { openSnapshotFile, type SnapshotFile } from './reader';
import { tempFolder } from './skiff-file.test-support';
import { snapshotContent } from './snapshot-content';

const NOW = Date.parse('2026-03-01T12:00:00Z');
/** Running again after an OOM kill: its current and previous runs' logs differ. */
const LOG_POD = DEMO_PODS.oomKilled;

let folder: ReturnType<typeof tempFolder>;
let live: Simulator;
let file: SnapshotFile;
/** What the file was asked for, in order: `objects:<type>`, `events`, `log`, `podMetrics`, `nodeMetrics`. */
let asked: string[] = [];
/** The test's own frozen simulator over the file (each test makes its content, so it is what runs the adapter). */
let frozen: Simulator | undefined;

async function serveFile(): Promise<Simulator> {
  asked = [];
  frozen = await startSimulator({ tickMs: false, now: () => NOW, content: snapshotContent(noting(file)) });
  return frozen;
}

/** The file, noting each read the simulator makes of it. */
function noting(f: SnapshotFile): SnapshotFile {
  const note =
    <A extends unknown[], R>(read: (...args: A) => R, what: (...args: A) => string) =>
    (...args: A): R => {
      asked.push(what(...args));
      return read(...args);
    };
  return {
    ...f,
    objects: note(f.objects, (type) => `objects:${type}`),
    liveEvents: note(f.liveEvents, () => 'events'),
    log: note(f.log, () => 'log'),
    podMetrics: note(f.podMetrics, () => 'podMetrics'),
    nodeMetrics: note(f.nodeMetrics, () => 'nodeMetrics'),
  };
}

async function get(sim: Simulator, path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(sim.url + path, { headers: { authorization: `Bearer ${DEFAULT_TOKEN}` } });
  return { status: res.status, text: await res.text() };
}

const names = (text: string) =>
  (JSON.parse(text) as { items: KubeObject[] }).items
    .map((o) => `${o.metadata.namespace}/${o.metadata.name}`)
    .sort();

beforeAll(async () => {
  folder = tempFolder();
  const path = folder.path('demo.skiff');
  live = await startSimulator({ tickMs: false, now: () => NOW });
  await writeSnapshotFixture(live, path, { logPods: [LOG_POD] });
  file = openSnapshotFile(path, await checkSnapshot(path));
});

afterEach(async () => {
  await frozen?.close();
  frozen = undefined;
});

afterAll(async () => {
  await live?.close();
  file?.close();
  folder?.remove();
});

describe('a snapshot as simulator content', () => {
  it('reads nothing of the file until asked, then only the kind asked for', async () => {
    const frozen = await serveFile();
    expect(asked).toEqual([]);
    const pods = await get(frozen, '/api/v1/pods');
    expect(pods.status).toBe(200);
    expect(asked).toEqual(['objects:pod']);
  });

  it('serves the captured pods, deployments and live events as the cluster listed them', async () => {
    const frozen = await serveFile();
    for (const path of ['/api/v1/pods', '/apis/apps/v1/deployments', '/api/v1/events']) {
      const [was, is] = await Promise.all([get(live, path), get(frozen, path)]);
      expect(is.status).toBe(200);
      expect(names(is.text).length).toBeGreaterThan(0);
      expect(names(is.text)).toEqual(names(was.text));
    }
    expect(asked).toContain('events');
  });

  it("serves a pod's captured log, and its previous run's", async () => {
    const base = `/api/v1/namespaces/${LOG_POD.namespace}/pods/${LOG_POD.name}/log?container=${LOG_POD.container}`;
    const frozen = await serveFile();
    const texts: string[] = [];
    for (const query of ['', '&previous=true']) {
      const [was, is] = await Promise.all([get(live, base + query), get(frozen, base + query)]);
      expect(was.status).toBe(200);
      expect(is.status).toBe(200);
      expect(is.text).not.toBe('');
      expect(is.text).toBe(was.text);
      texts.push(is.text);
    }
    expect(texts[0]).not.toBe(texts[1]);
  });

  it('serves the captured pod and node metrics', async () => {
    const frozen = await serveFile();
    for (const kind of ['pods', 'nodes']) {
      const path = `/apis/metrics.k8s.io/v1beta1/${kind}`;
      const [was, is] = await Promise.all([get(live, path), get(frozen, path)]);
      expect(is.status).toBe(200);
      expect(names(is.text).length).toBeGreaterThan(0);
      expect(names(is.text)).toEqual(names(was.text));
    }
  });
});
