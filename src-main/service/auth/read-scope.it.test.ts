/**
 * read-scope.ts against a real cluster connection to the simulator (its demo objects), with the
 * grants of a rule table (rule-access.test-support.ts): the candidates are the cluster's own
 * namespaces, and an object named without a namespace is looked for only where it may be read.
 */
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_KINDS } from '../../../src-shared/kube/kinds';
import { ClusterConnection } from '../clusters/cluster';
import type { KindInfo } from '../clusters/kind-info';
import { ProblemError } from '../errors';
import { eventNamespaces } from '../events/access';
import { contextsFromYaml } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { OPEN_ACCESS } from './rbac/access';
import { clusterNamespaces, locateReadable, readableIn } from './read-scope';
import { type Rule, ruleAccess } from './rule-access.test-support';

let sim: Simulator;
let cluster: ClusterConnection;
const signal = new AbortController().signal;
const POD = RESOURCE_KINDS.pod as KindInfo;
const getPods = (namespace: string): Rule => ({ verbs: ['get'], group: '', resources: ['pods'], namespace });

beforeAll(async () => {
  sim = await startSimulator({ tickMs: false });
  cluster = new ClusterConnection('sim', contextsFromYaml(sim.kubeconfigYaml('sim'))[0]!, {
    timeoutMs: 5_000,
    logger: silentLogger(),
  });
});
afterAll(async () => {
  await cluster?.close();
  await sim?.close();
});

/** The pods' names with the namespaces holding them. */
async function podNamespaces(kind: KindInfo = POD): Promise<Map<string, string[]>> {
  const cache = cluster.resources(kind);
  await cache.acquire(signal);
  const out = new Map<string, string[]>();
  for (const e of cache.read().view.all) out.set(e.name, [...(out.get(e.name) ?? []), e.namespace]);
  return out;
}

async function problemOf(p: Promise<unknown>): Promise<ProblemError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProblemError);
  return err as ProblemError;
}

it('takes its candidates from the cluster’s namespaces', async () => {
  const names = await clusterNamespaces(cluster, signal);
  expect(names).toContain('shop');
  expect(names).toContain('kube-system');
  const access = ruleAccess([{ verbs: ['list'], group: '', resources: ['events'], namespace: 'shop' }]);
  const attrs = { verb: 'list', group: '', resource: 'events' } as const;
  expect(await readableIn(access, cluster, attrs, signal)).toEqual(new Set(['shop']));
  expect(access.asked.filter((a) => a.namespace !== undefined).map((a) => a.namespace)).toEqual(names);
});

describe('events', () => {
  it('asks nothing with open access', async () => {
    expect(await eventNamespaces({ access: OPEN_ACCESS, cluster }, 'kube-system', signal)).toBeUndefined();
    expect(await eventNamespaces({ access: OPEN_ACCESS, cluster }, undefined, signal)).toBeUndefined();
  });

  it('checks a namespace named, and answers the set across namespaces', async () => {
    const access = ruleAccess([{ verbs: ['list'], group: '', resources: ['events'], namespace: 'shop' }]);
    expect(await eventNamespaces({ access, cluster }, 'shop', signal)).toBeUndefined();
    const refused = await problemOf(eventNamespaces({ access, cluster }, 'kube-system', signal));
    expect(refused.code).toBe('forbidden');
    expect(await eventNamespaces({ access, cluster }, undefined, signal)).toEqual(new Set(['shop']));
  });
});

describe('an object named without a namespace', () => {
  it('is found where it may be read', async () => {
    const [name, [ns]] = [...(await podNamespaces())].find(([, nss]) => nss.length === 1)! as [
      string,
      string[],
    ];
    expect(await locateReadable(ruleAccess([getPods(ns!)]), cluster, POD, name, signal)).toBe(ns);
  });

  it('is found anywhere when it may be read cluster-wide', async () => {
    const [name, [ns]] = [...(await podNamespaces())].find(([, nss]) => nss.length === 1)! as [
      string,
      string[],
    ];
    const access = ruleAccess([{ verbs: ['get'], group: '', resources: ['pods'] }]);
    expect(await locateReadable(access, cluster, POD, name, signal)).toBe(ns);
  });

  it('held only where it may not be read is a 403 at the cluster scope', async () => {
    const [name] = [...(await podNamespaces())].find(([, nss]) => !nss.includes('shop'))!;
    const err = await problemOf(locateReadable(ruleAccess([getPods('shop')]), cluster, POD, name, signal));
    expect(err.code).toBe('forbidden');
    expect(err.extensions.permission).toEqual({ verb: 'get', group: '', resource: 'pods', name });
  });

  it('held nowhere is a 404, asking nothing', async () => {
    const access = ruleAccess([getPods('shop')]);
    const err = await problemOf(locateReadable(access, cluster, POD, 'no-such-pod', signal));
    expect(err.code).toBe('resource_not_found');
    expect(err.message).toBe('pod "no-such-pod" not found');
    expect(access.asked.filter((a) => a.namespace === undefined && a.name === 'no-such-pod')).toHaveLength(1);
  });

  it('held in several readable namespaces is a 409 naming only those', async () => {
    // A name several namespaces hold (a ServiceAccount or ConfigMap every namespace has).
    let found: { kind: KindInfo; name: string; nss: string[] } | undefined;
    for (const type of ['serviceaccount', 'configmap', 'service']) {
      const kind = await cluster.kind(type, signal);
      const shared = [...(await podNamespaces(kind))].find(([, nss]) => nss.length >= 3);
      if (shared) {
        found = { kind, name: shared[0], nss: shared[1] };
        break;
      }
    }
    expect(found).toBeDefined();
    const { kind, name, nss } = found!;
    const [a, b] = nss as [string, string];
    const rule = (namespace: string): Rule => ({
      verbs: ['get'],
      group: kind.group,
      resources: [kind.plural],
      namespace,
    });
    const err = await problemOf(locateReadable(ruleAccess([rule(a), rule(b)]), cluster, kind, name, signal));
    expect(err.code).toBe('conflict');
    expect(err.message).toBe(
      `${kind.resourceType} "${name}" exists in several namespaces (${a}, ${b}); name the namespace in the path`,
    );
    expect(err.extensions).toEqual({ namespaces: [a, b] });
  });
});
