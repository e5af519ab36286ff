/**
 * `selects` and `selectedBy` over real Collections: Service selectors (none when empty), PDB and
 * NetworkPolicy label selectors with expressions (empty selects all), HPA targets, Ingress
 * backends, each found or missing; the inverse from a pod and from a target; and which caches a
 * kind's answer starts. Then how an answer is found (404, 409, the own kind's failure) and marked
 * (stale, gaps). Fixtures out of answer order.
 */
import { describe, expect, it } from 'vitest';
import type { RelationRef } from '../../../src-shared/contract/relations-operations';
import { ProblemError } from '../errors';
import { FixtureSource, forbidden, KINDS, obj } from './fixtures.test-support';
import { MAX_REFS } from './refs';
import { relationsOf } from './relations';

const kind = (t: string) => KINDS.find((k) => k.resourceType === t)!;
const names = (refs: readonly RelationRef[]) =>
  refs.map((r) => `${r.resourceType}/${r.name}${r.missing ? ' missing' : ''}`);

const pod = (name: string, labels: Record<string, string>, ns = 'shop') =>
  obj('v1', 'Pod', name, ns, { status: { phase: 'Running' } }, { labels });

function world() {
  return [
    pod('web-2', { app: 'web', tier: 'front' }),
    pod('web-1', { app: 'web', tier: 'front' }),
    pod('db-0', { app: 'db' }),
    pod('web-x', { app: 'web' }, 'other'),
    obj('v1', 'Service', 'web', 'shop', { spec: { selector: { app: 'web' } } }),
    obj('v1', 'Service', 'headless', 'shop', { spec: { selector: {} } }),
    obj('v1', 'Service', 'external', 'shop', { spec: { type: 'ExternalName' } }),
    obj('v1', 'Service', 'all-front', 'shop', { spec: { selector: { tier: 'front' } } }),
    obj('policy/v1', 'PodDisruptionBudget', 'not-db', 'shop', {
      spec: { selector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['db'] }] } },
    }),
    obj('policy/v1', 'PodDisruptionBudget', 'every', 'shop', { spec: { selector: {} } }),
    obj('policy/v1', 'PodDisruptionBudget', 'none', 'shop', { spec: {} }),
    obj('policy/v1', 'PodDisruptionBudget', 'odd', 'shop', {
      spec: { selector: { matchExpressions: [{ key: 'app', operator: 'Gt', values: ['1'] }] } },
    }),
    obj('networking.k8s.io/v1', 'NetworkPolicy', 'deny-all', 'shop', { spec: { podSelector: {} } }),
    obj('networking.k8s.io/v1', 'NetworkPolicy', 'db-only', 'shop', {
      spec: { podSelector: { matchLabels: { app: 'db' } } },
    }),
    // Labelled like the pods: only pods are selected by Services, PDBs and NetworkPolicies.
    obj('apps/v1', 'Deployment', 'web', 'shop', {}, { labels: { app: 'web', tier: 'front' } }),
    obj('autoscaling/v2', 'HorizontalPodAutoscaler', 'web', 'shop', {
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } },
    }),
    obj('autoscaling/v2', 'HorizontalPodAutoscaler', 'gone', 'shop', {
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'gone' } },
    }),
    obj('autoscaling/v2', 'HorizontalPodAutoscaler', 'broken', 'shop', {
      spec: { scaleTargetRef: { kind: 'Deployment' } },
    }),
    obj('networking.k8s.io/v1', 'Ingress', 'shop', 'shop', {
      spec: {
        defaultBackend: { service: { name: 'web', port: { number: 80 } } },
        rules: [
          {
            host: 'shop.example.com',
            http: {
              paths: [
                { path: '/api', backend: { service: { name: 'api', port: { number: 80 } } } },
                { path: '/', backend: { service: { name: 'web', port: { number: 80 } } } },
                {
                  path: '/static',
                  backend: { resource: { apiGroup: 'cert-manager.io', kind: 'Certificate', name: 'c' } },
                },
              ],
            },
          },
          { http: { paths: [{ backend: { resource: { kind: 'ConfigMap', name: 'page' } } }] } },
        ],
      },
    }),
  ];
}

describe('selects', () => {
  it('of a Service: the pods of its namespace its selector matches; an empty or absent selector none', async () => {
    const src = new FixtureSource(world());
    const of = async (name: string) =>
      names((await relationsOf(src, kind('service'), 'shop', name)).relations.selects);
    expect(await of('web')).toEqual(['pod/web-1', 'pod/web-2']);
    expect(await of('headless')).toEqual([]);
    expect(await of('external')).toEqual([]);
    const web = (await relationsOf(src, kind('service'), 'shop', 'web')).relations.selects[0];
    expect(web).toMatchObject({ namespace: 'shop', status: 'Running' });
    expect(web!.uid).toMatch(/^uid-pod-web-1-/);
  });

  it('of a PDB and a NetworkPolicy: label selectors with expressions; empty selects all, absent none', async () => {
    const src = new FixtureSource(world());
    const of = async (t: string, name: string) =>
      names((await relationsOf(src, kind(t), 'shop', name)).relations.selects);
    expect(await of('poddisruptionbudget', 'not-db')).toEqual(['pod/web-1', 'pod/web-2']);
    expect(await of('poddisruptionbudget', 'every')).toEqual(['pod/db-0', 'pod/web-1', 'pod/web-2']);
    expect(await of('poddisruptionbudget', 'none')).toEqual([]);
    expect(await of('poddisruptionbudget', 'odd')).toEqual([]);
    expect(await of('networkpolicy', 'deny-all')).toEqual(['pod/db-0', 'pod/web-1', 'pod/web-2']);
    expect(await of('networkpolicy', 'db-only')).toEqual(['pod/db-0']);
  });

  it('of an HPA: its scaleTargetRef, missing when absent; of an Ingress: its backends', async () => {
    const src = new FixtureSource(world());
    const of = async (t: string, name: string) => (await relationsOf(src, kind(t), 'shop', name)).relations;
    const hpa = await of('horizontalpodautoscaler', 'web');
    expect(hpa.selects).toEqual([
      expect.objectContaining({
        resourceType: 'deployment',
        namespace: 'shop',
        name: 'web',
        via: ['spec.scaleTargetRef'],
      }),
    ]);
    expect((await of('horizontalpodautoscaler', 'gone')).selects).toEqual([
      {
        resourceType: 'deployment',
        namespace: 'shop',
        name: 'gone',
        missing: true,
        via: ['spec.scaleTargetRef'],
      },
    ]);
    expect((await of('horizontalpodautoscaler', 'broken')).selects).toEqual([]);
    const ing = await of('ingress', 'shop');
    expect(names(ing.selects)).toEqual([
      'certificate/c missing',
      'configmap/page missing',
      'service/api missing',
      'service/web',
    ]);
    expect(ing.selects.find((r) => r.name === 'web')!.via).toEqual([
      'spec.defaultBackend',
      'spec.rules[shop.example.com].http.paths[/]',
    ]);
    expect(ing.selects.find((r) => r.name === 'page')!.via).toEqual(['spec.rules[1].http.paths[]']);
  });

  it(`is cut at ${MAX_REFS} pods, saying how many it left off`, async () => {
    const pods = Array.from({ length: MAX_REFS + 2 }, (_, i) =>
      pod(`p-${String(i).padStart(5, '0')}`, { app: 'x' }),
    );
    const svc = obj('v1', 'Service', 'x', 'shop', { spec: { selector: { app: 'x' } } });
    const { relations } = await relationsOf(new FixtureSource([svc, ...pods]), kind('service'), 'shop', 'x');
    expect(relations.selects).toHaveLength(MAX_REFS);
    expect(relations.selects.at(-1)!.name).toBe(`p-${String(MAX_REFS - 1).padStart(5, '0')}`);
    expect(relations.leftOff).toEqual({ selects: 2 });
    expect(relations.truncated).toBe(true);
  });
});

describe('selects and selectedBy of kinds that cannot be read', () => {
  it('name a target of a kind not served or not readable without marking it missing', async () => {
    const src = new FixtureSource([
      ...world(),
      obj('autoscaling/v2', 'HorizontalPodAutoscaler', 'rollout', 'shop', {
        spec: { scaleTargetRef: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'r' } },
      }),
      obj('networking.k8s.io/v1', 'Ingress', 'issuer', 'shop', {
        spec: {
          defaultBackend: { resource: { apiGroup: 'cert-manager.io', kind: 'ClusterIssuer', name: 'le' } },
          rules: [{ http: { paths: [{ path: '/', backend: { service: { name: 'web' } } }] } }],
        },
      }),
    ]);
    src.failing.set('clusterissuer', forbidden('clusterissuers'));
    src.failing.set('deployment', forbidden('deployments'));
    const of = async (t: string, name: string) => (await relationsOf(src, kind(t), 'shop', name)).relations;
    const rollout = await of('horizontalpodautoscaler', 'rollout');
    expect(rollout.selects).toStrictEqual([
      { resourceType: 'rollout.argoproj.io', namespace: 'shop', name: 'r', via: ['spec.scaleTargetRef'] },
    ]);
    expect(rollout.gaps?.map((g) => g.resourceType)).toEqual(['rollout.argoproj.io']);
    expect((await of('horizontalpodautoscaler', 'web')).selects).toStrictEqual([
      { resourceType: 'deployment', namespace: 'shop', name: 'web', via: ['spec.scaleTargetRef'] },
    ]);
    const issuer = await of('ingress', 'issuer');
    expect(issuer.selects[0]).toStrictEqual({
      resourceType: 'clusterissuer',
      name: 'le',
      via: ['spec.defaultBackend'],
    });
    expect(names(issuer.selects)).toEqual(['clusterissuer/le', 'service/web']);
  });

  it('answer no pods when pods cannot be read, and read none for what selects no pods', async () => {
    const src = new FixtureSource(world());
    src.reads.length = 0;
    await relationsOf(src, kind('horizontalpodautoscaler'), 'shop', 'web');
    expect(src.reads).not.toContain('pod');
    src.failing.set('pod', forbidden('pods'));
    const svc = (await relationsOf(src, kind('service'), 'shop', 'web')).relations;
    expect(svc.selects).toEqual([]);
    expect(svc.gaps?.map((g) => g.resourceType)).toEqual(['pod']);
    const noPods = new FixtureSource(
      world().filter((o) => o.kind !== 'Pod'),
      KINDS.filter((k) => k.resourceType !== 'pod'),
    );
    expect((await relationsOf(noPods, kind('service'), 'shop', 'web')).relations.selects).toEqual([]);
  });

  it('skip pointers whose kind is not served or cannot be read', async () => {
    const served = KINDS.filter((k) => k.resourceType !== 'horizontalpodautoscaler');
    const src = new FixtureSource(
      world().filter((o) => o.kind !== 'HorizontalPodAutoscaler'),
      served,
    );
    src.failing.set('ingress', forbidden('ingresses'));
    expect((await relationsOf(src, kind('deployment'), 'shop', 'web')).relations.selectedBy).toEqual([]);
    const svc = (await relationsOf(src, kind('service'), 'shop', 'web')).relations;
    expect(svc.selectedBy).toEqual([]);
    expect(svc.gaps?.map((g) => g.resourceType)).toEqual(['ingress']);
  });

  it(`cut selectedBy at ${MAX_REFS}, saying how many it left off`, async () => {
    const hpas = Array.from({ length: MAX_REFS + 1 }, (_, i) =>
      obj('autoscaling/v2', 'HorizontalPodAutoscaler', `h${String(i).padStart(5, '0')}`, 'shop', {
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } },
      }),
    );
    const src = new FixtureSource([...world(), ...hpas]);
    const { relations } = await relationsOf(src, kind('deployment'), 'shop', 'web');
    expect(relations.selectedBy).toHaveLength(MAX_REFS);
    expect(relations.leftOff).toEqual({ selectedBy: 2 });
  });
});

describe('selectedBy', () => {
  it('of a pod: the Services, PDBs and NetworkPolicies of its namespace that match it', async () => {
    const src = new FixtureSource(world());
    const of = async (ns: string, name: string) =>
      names((await relationsOf(src, kind('pod'), ns, name)).relations.selectedBy);
    expect(await of('shop', 'web-1')).toEqual([
      'networkpolicy/deny-all',
      'poddisruptionbudget/every',
      'poddisruptionbudget/not-db',
      'service/all-front',
      'service/web',
    ]);
    expect(await of('shop', 'db-0')).toEqual([
      'networkpolicy/db-only',
      'networkpolicy/deny-all',
      'poddisruptionbudget/every',
    ]);
    expect(await of('other', 'web-x')).toEqual([]);
  });

  it('of a workload: its HPAs; of a Service: its Ingresses, with the fields that point at it', async () => {
    const src = new FixtureSource(world());
    const deploy = (await relationsOf(src, kind('deployment'), 'shop', 'web')).relations.selectedBy;
    expect(deploy).toEqual([
      expect.objectContaining({
        resourceType: 'horizontalpodautoscaler',
        name: 'web',
        via: ['spec.scaleTargetRef'],
      }),
    ]);
    const svc = (await relationsOf(src, kind('service'), 'shop', 'web')).relations.selectedBy;
    expect(svc).toEqual([
      expect.objectContaining({
        resourceType: 'ingress',
        name: 'shop',
        via: ['spec.defaultBackend', 'spec.rules[shop.example.com].http.paths[/]'],
      }),
    ]);
  });

  it('starts no HPA or Ingress cache for a kind they cannot point at, and does for a custom kind', async () => {
    const src = new FixtureSource(world());
    src.upsert(obj('v1', 'ConfigMap', 'c', 'shop'));
    src.reads.length = 0;
    await relationsOf(src, kind('configmap'), 'shop', 'c');
    expect(src.reads).not.toContain('horizontalpodautoscaler');
    expect(src.reads).not.toContain('ingress');
    src.upsert(obj('cert-manager.io/v1', 'Certificate', 'c', 'shop'));
    const cert = (await relationsOf(src, kind('certificate'), 'shop', 'c')).relations.selectedBy;
    expect(names(cert)).toEqual(['ingress/shop']);
    src.reads.length = 0;
    await relationsOf(src, kind('service'), 'shop', 'web');
    expect(src.reads).toContain('ingress');
    expect(src.reads).not.toContain('horizontalpodautoscaler');
  });
});

describe('an answer', () => {
  it('is 404 for an object its kind’s cache does not hold', async () => {
    const src = new FixtureSource(world());
    const err = await relationsOf(src, kind('pod'), 'shop', 'nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProblemError);
    expect(err).toMatchObject({
      code: 'resource_not_found',
      message: 'pod "nope" in namespace shop not found',
    });
    const node = await relationsOf(src, kind('node'), undefined, 'n').catch((e: unknown) => e);
    expect(node).toMatchObject({ code: 'resource_not_found', message: 'node "n" not found' });
  });

  it('finds a namespaced object named without a namespace when one namespace has it, else 404 or 409', async () => {
    const src = new FixtureSource([...world(), pod('web-1', {}, 'zeta')]);
    const one = await relationsOf(src, kind('pod'), undefined, 'db-0');
    expect(one.relations.object).toMatchObject({ namespace: 'shop', name: 'db-0' });
    const none = await relationsOf(src, kind('pod'), undefined, 'nope').catch((e: unknown) => e);
    expect(none).toMatchObject({ code: 'resource_not_found', message: 'pod "nope" not found' });
    const two = await relationsOf(src, kind('pod'), undefined, 'web-1').catch((e: unknown) => e);
    expect(two).toMatchObject({
      code: 'conflict',
      extensions: { namespaces: ['shop', 'zeta'] },
      message:
        'pod "web-1" exists in several namespaces (shop, zeta); use /relations/namespaces/{namespace}/pod/web-1',
    });
  });

  it('fails with its own kind’s problem when that kind cannot be read', async () => {
    const src = new FixtureSource(world());
    const problem = forbidden('pods');
    src.failing.set('pod', problem);
    await expect(relationsOf(src, kind('pod'), 'shop', 'web-1')).rejects.toBe(problem);
    const odd = new Error('odd');
    src.failing.set('pod', odd);
    await expect(relationsOf(src, kind('pod'), 'shop', 'web-1')).rejects.toBe(odd);
  });

  it('is as stale as the stalest cache it read, and lists gaps by resourceType', async () => {
    const src = new FixtureSource(world());
    src.stale.set('service', '2026-01-02T00:00:00.000Z');
    src.stale.set('pod', '2026-01-03T00:00:00.000Z');
    src.stale.set('ingress', '2026-01-01T00:00:00.000Z');
    src.failing.set('poddisruptionbudget', forbidden('poddisruptionbudgets'));
    src.failing.set('networkpolicy', new Error('plain failure'));
    const answer = await relationsOf(src, kind('pod'), 'shop', 'web-1');
    expect(answer.staleSince).toBe('2026-01-02T00:00:00.000Z');
    expect(answer.relations.gaps).toEqual([
      { resourceType: 'networkpolicy', detail: 'plain failure' },
      {
        resourceType: 'poddisruptionbudget',
        detail: 'cluster_unauthorized: the cluster refused to list poddisruptionbudgets (403)',
      },
    ]);
    const fresh = await relationsOf(new FixtureSource(world()), kind('pod'), 'shop', 'web-1');
    expect(fresh.staleSince).toBeUndefined();
    expect(fresh.relations.gaps).toBeUndefined();
    expect(Object.keys(fresh.relations)).toEqual([
      'object',
      'owners',
      'dependents',
      'uses',
      'usedBy',
      'selects',
      'selectedBy',
    ]);
  });
});
