import { describe, expect, it } from 'vitest';
import type { ServedKind } from '../../../src-shared/contract/kinds-operations';
import { type KindEntry, toEntry } from '../../kube/kind-catalog';
import { groupKinds, isKubernetesGroup, placeOf } from './kind-groups';

/** The tree's grouping of served kinds, and which empty kinds it hides. */

function kind(
  resourceType: string,
  kindName: string,
  group: string,
  plural: string,
  extra: Partial<ServedKind> = {},
) {
  return toEntry({
    resourceType,
    plural,
    kind: kindName,
    group,
    version: 'v1',
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: ['list', 'watch'],
    ...extra,
  });
}

const POD = kind('pod', 'Pod', '', 'pods');
const DEPLOY = kind('deployment', 'Deployment', 'apps', 'deployments');
const RS = kind('replicaset', 'ReplicaSet', 'apps', 'replicasets');
const CM = kind('configmap', 'ConfigMap', '', 'configmaps');
const SECRET = kind('secret', 'Secret', '', 'secrets');
const ING = kind('ingress', 'Ingress', 'networking.k8s.io', 'ingresses');
const SVC = kind('service', 'Service', '', 'services');
const SA = kind('serviceaccount', 'ServiceAccount', '', 'serviceaccounts');
const ROLE = kind('role', 'Role', 'rbac.authorization.k8s.io', 'roles');
const NODE = kind('node', 'Node', '', 'nodes', { namespaced: false });
const NS = kind('namespace', 'Namespace', '', 'namespaces', { namespaced: false });
const LEASE = kind('lease', 'Lease', 'coordination.k8s.io', 'leases');
const APISVC = kind('apiservice', 'APIService', 'apiregistration.k8s.io', 'apiservices', {
  namespaced: false,
});
const CERT = kind('certificate', 'Certificate', 'cert-manager.io', 'certificates', { columns: [] });
const ISSUER = kind('clusterissuer', 'ClusterIssuer', 'cert-manager.io', 'clusterissuers', { columns: [] });
const GW = kind('gateway', 'Gateway', 'gateway.networking.k8s.io', 'gateways', { columns: [] });
const AGG = kind('widget', 'Widget', 'example.com', 'widgets');

const ALL: KindEntry[] = [
  LEASE,
  GW,
  CERT,
  AGG,
  ISSUER,
  ROLE,
  SA,
  NS,
  NODE,
  APISVC,
  SVC,
  ING,
  SECRET,
  CM,
  RS,
  DEPLOY,
  POD,
];
const names = (ks: KindEntry[]) => ks.map((k) => k.resourceType);
const everything = { counts: new Map<string, number>(), showEmpty: false, current: null };

describe('groupKinds', () => {
  it('puts built-in kinds where people look for them, in a fixed order', () => {
    const { builtIn } = groupKinds(ALL, everything);
    expect(builtIn.map((g) => [g.id, g.label, names(g.kinds)])).toEqual([
      ['workloads', 'Workloads', ['pod', 'deployment', 'replicaset']],
      ['networking', 'Networking', ['service', 'ingress']],
      ['config', 'Config & storage', ['configmap', 'secret']],
      ['access', 'Access control', ['serviceaccount', 'role']],
      // Placed ones in the table's order, then the rest by label.
      ['cluster', 'Cluster', ['node', 'namespace', 'apiservice', 'lease']],
    ]);
  });

  it('groups custom resources by API group, sorted, CRD kinds of *.k8s.io groups included', () => {
    const { custom } = groupKinds(ALL, everything);
    expect(custom.map((g) => [g.id, g.label, names(g.kinds)])).toEqual([
      ['crd:cert-manager.io', 'cert-manager.io', ['certificate', 'clusterissuer']],
      ['crd:example.com', 'example.com', ['widget']],
      ['crd:gateway.networking.k8s.io', 'gateway.networking.k8s.io', ['gateway']],
    ]);
  });

  it('hides kinds counted empty, unless shown or open; unknown counts stay', () => {
    const counts = new Map([
      ['pod', 0],
      ['deployment', 2],
      ['replicaset', 0],
      ['certificate', 0],
      ['clusterissuer', 1],
    ]);
    const hidden = groupKinds(ALL, { counts, showEmpty: false, current: 'replicaset' });
    const workloads = hidden.builtIn.find((g) => g.id === 'workloads')!;
    expect(names(workloads.kinds)).toEqual(['deployment', 'replicaset']);
    expect(workloads.hidden).toBe(1);
    const cm = hidden.custom.find((g) => g.id === 'crd:cert-manager.io')!;
    expect(names(cm.kinds)).toEqual(['clusterissuer']);
    expect(cm.hidden).toBe(1);
    // Kinds without a count are not hidden: nothing says they are empty.
    expect(names(hidden.builtIn.find((g) => g.id === 'config')!.kinds)).toEqual(['configmap', 'secret']);

    const shown = groupKinds(ALL, { counts, showEmpty: true, current: null });
    expect(names(shown.builtIn[0]!.kinds)).toEqual(['pod', 'deployment', 'replicaset']);
    expect(shown.builtIn[0]!.hidden).toBe(0);
  });

  it('orders unplaced kinds by label, then by resourceType', () => {
    const a = kind('zeta', 'Same', 'coordination.k8s.io', 'sames');
    const b = kind('alpha', 'Same', 'node.k8s.io', 'sames');
    const c = kind('beta', 'Another', 'coordination.k8s.io', 'anothers');
    const { builtIn } = groupKinds([a, b, c], everything);
    expect(names(builtIn.find((g) => g.id === 'cluster')!.kinds)).toEqual(['beta', 'alpha', 'zeta']);
    const x = kind('x2', 'Thing', 'example.com', 'things');
    const y = kind('x1', 'Thing', 'example.com', 'things');
    expect(names(groupKinds([x, y], everything).custom[0]!.kinds)).toEqual(['x1', 'x2']);
  });
});

describe('placeOf', () => {
  it('places by group and plural, never by a CRD that shadows a built-in name', () => {
    expect(placeOf(POD)).toEqual({ group: 'workloads', order: 0 });
    expect(placeOf(ING)).toEqual({ group: 'networking', order: 1 });
    expect(placeOf(kind('pod', 'Pod', '', 'pods', { columns: [] }))).toEqual({ custom: '' });
    expect(placeOf(LEASE)).toEqual({ group: 'cluster', order: Number.POSITIVE_INFINITY });
    expect(placeOf(AGG)).toEqual({ custom: 'example.com' });
  });

  it('knows Kubernetes’ own groups', () => {
    for (const g of ['', 'apps', 'batch', 'autoscaling', 'policy', 'k8s.io', 'storage.k8s.io']) {
      expect(isKubernetesGroup(g)).toBe(true);
    }
    for (const g of ['cert-manager.io', 'example.com', 'k8s.io.example.com', 'xk8s.io']) {
      expect(isKubernetesGroup(g)).toBe(false);
    }
  });
});
