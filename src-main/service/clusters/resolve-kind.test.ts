/**
 * Resolving a typed resourceType (resolve-kind.ts): names that resolve, the nine without
 * discovery, names refused.
 */
import { describe, expect, it } from 'vitest';
import { RESOURCE_TYPES } from '../../../src-shared/kube/kinds';
import { ProblemError } from '../errors';
import { type KindInfo, TAILORED_KINDS } from './kind-info';
import { resolveKind, tailoredKind } from './resolve-kind';

/**
 * The naming rules, against a fixed list of kinds as a cluster's discovery names them
 * (discovery/names.ts). The same rules over HTTP and IPC: test/kinds-endpoints.it.test.ts.
 */

const kind = (
  resourceType: string,
  group: string,
  plural: string,
  namespaced: boolean,
  shortNames: string[] = [],
  singular = resourceType.split('.')[0] as string,
): KindInfo => ({
  resourceType,
  singular,
  plural,
  kind: singular,
  group,
  version: 'v1',
  apiPath: group ? `/apis/${group}/v1` : '/api/v1',
  namespaced,
  shortNames,
  categories: [],
});

const configmap = kind('configmap', '', 'configmaps', true, ['cm']);
const ingress = kind('ingress', 'networking.k8s.io', 'ingresses', true, ['ing']);
const storageclass = kind('storageclass', 'storage.k8s.io', 'storageclasses', false, ['sc']);
const certificate = kind('certificate', 'cert-manager.io', 'certificates', true, ['cert', 'certs']);
const widgetA = kind('widget.alpha.dev', 'alpha.dev', 'widgets', true, ['wd']);
const widgetZ = kind('widget.zeta.dev', 'zeta.dev', 'widgets', false, ['wd']);
const event = kind('event', '', 'events', true, ['ev']);
const eventsApi = kind('event.events.k8s.io', 'events.k8s.io', 'events', true, ['ev']);
const hpa = kind('horizontalpodautoscaler', 'autoscaling', 'horizontalpodautoscalers', true, ['hpa']);

// As discovery orders them: by resourceType. The nine sit among the others.
const KINDS: readonly KindInfo[] = [
  certificate,
  configmap,
  ...TAILORED_KINDS.filter((k) => k.resourceType < 'e'),
  event,
  eventsApi,
  hpa,
  ingress,
  ...TAILORED_KINDS.filter((k) => k.resourceType >= 'e'),
  storageclass,
  widgetA,
  widgetZ,
];

const ANY = { clusterId: 'prod' };
const NAMESPACED = { clusterId: 'prod', namespaced: true };

function refused(raw: string, scope: { clusterId: string; namespaced?: boolean } = ANY, kinds = KINDS) {
  try {
    resolveKind(raw, kinds, scope);
  } catch (err) {
    expect(err).toBeInstanceOf(ProblemError);
    const p = (err as ProblemError).toProblem() as ReturnType<ProblemError['toProblem']> & {
      accepted: string[];
      hint?: string;
      candidates?: string[];
      errors: unknown[];
    };
    expect(p.code).toBe('invalid_resource_type');
    expect(p.status).toBe(400);
    // A refusal is named like the edge's own: where, which field, what is wrong.
    expect(p.errors).toEqual([{ in: 'params', field: 'resourceType', message: p.detail }]);
    return p;
  }
  throw new Error(`${raw} was accepted`);
}

describe('names that resolve', () => {
  it('a resourceType names its kind, in any case', () => {
    for (const [raw, want] of [
      ['configmap', configmap],
      ['ConfigMap', configmap],
      ['INGRESS', ingress],
      ['horizontalpodautoscaler', hpa],
      ['storageclass', storageclass],
      ['Widget.Alpha.Dev', widgetA],
      ['widget.zeta.dev', widgetZ],
      ['pod', TAILORED_KINDS.find((k) => k.resourceType === 'pod')],
    ] as const) {
      expect(resolveKind(raw, KINDS, ANY), raw).toBe(want);
    }
  });

  it('singular.group names every kind of a named group, whatever its resourceType', () => {
    expect(resolveKind('ingress.networking.k8s.io', KINDS, ANY)).toBe(ingress);
    expect(resolveKind('Certificate.Cert-Manager.IO', KINDS, ANY)).toBe(certificate);
    expect(resolveKind('deployment.apps', KINDS, ANY).plural).toBe('deployments');
    expect(resolveKind('cronjob.batch', KINDS, NAMESPACED).plural).toBe('cronjobs');
  });

  it('a qualified name is compared with the group in lower case', () => {
    const upper = kind('thing', 'Example.DEV', 'things', true);
    expect(resolveKind('thing.example.dev', [upper], ANY)).toBe(upper);
  });

  it('a namespaced kind resolves under a namespace too', () => {
    expect(resolveKind('configmap', KINDS, NAMESPACED)).toBe(configmap);
  });
});

describe('the nine without discovery', () => {
  it('their bare and qualified names, in any case', () => {
    expect(tailoredKind('Pod')?.plural).toBe('pods');
    expect(tailoredKind('deployment.APPS')?.plural).toBe('deployments');
    expect(tailoredKind('node')?.namespaced).toBe(false);
    for (const t of RESOURCE_TYPES) expect(tailoredKind(t)?.resourceType).toBe(t);
  });

  it('nothing else, and no qualified name for the core group', () => {
    for (const raw of ['configmap', 'pods', 'po', 'pod.', 'pod.core', 'deployment.batch', 'deployments.apps'])
      expect(tailoredKind(raw), raw).toBeUndefined();
  });
});

describe('names that are refused', () => {
  it('a plural gets the canonical name as the hint', () => {
    for (const [raw, canonical] of [
      ['configmaps', 'configmap'],
      ['Ingresses', 'ingress'],
      ['pods', 'pod'],
      ['storageclasses', 'storageclass'],
    ]) {
      const p = refused(raw as string);
      expect(p.hint, raw).toBe(`did you mean ${canonical}?`);
      expect(p.detail).toContain(`unknown resourceType "${raw}" (did you mean ${canonical}?)`);
    }
  });

  it('a short name gets the canonical name as the hint', () => {
    expect(refused('cm').hint).toBe('did you mean configmap?');
    expect(refused('HPA').hint).toBe('did you mean horizontalpodautoscaler?');
    expect(refused('cert').hint).toBe('did you mean certificate?');
    expect(refused('po').hint).toBe('did you mean pod?');
  });

  it('a short name two kinds share names both', () => {
    expect(refused('wd').hint).toBe('did you mean widget.alpha.dev or widget.zeta.dev?');
  });

  it('a qualified plural gets the canonical name as the hint', () => {
    expect(refused('certificates.cert-manager.io').hint).toBe('did you mean certificate?');
    expect(refused('deployments.apps').hint).toBe('did you mean deployment?');
    expect(refused('ingresses.networking.k8s.io').hint).toBe('did you mean ingress?');
  });

  it('a known name before an unknown group suffix gets the canonical name as the hint', () => {
    expect(refused('deployment.bogus').hint).toBe('did you mean deployment?');
    expect(refused('configmaps.v1').hint).toBe('did you mean configmap?');
    expect(refused('cm.core').hint).toBe('did you mean configmap?');
  });

  it('a near miss gets the closest singular, the nine first among equals', () => {
    expect(refused('configmapp').hint).toBe('did you mean configmap?');
    expect(refused('certificat').hint).toBe('did you mean certificate?');
    expect(refused('podd').hint).toBe('did you mean pod?');
    // "nod" is one edit from node and from pod; node comes first among the nine.
    expect(refused('nod').hint).toBe('did you mean node?');
    // "nodd" is one edit from node, two from pod.
    expect(refused('nodd').hint).toBe('did you mean node?');
    expect(refused('storagclas').hint).toBe('did you mean storageclass?');
  });

  it('nothing more than two edits away is suggested', () => {
    const p = refused('gizmo');
    expect(p).not.toHaveProperty('hint');
    expect(p.detail).toMatch(/^unknown resourceType "gizmo"; accepted values: /);
    expect(refused('configmappxx')).not.toHaveProperty('hint');
    expect(refused('nodeee').hint).toBe('did you mean node?');
    expect(refused('nodeeee')).not.toHaveProperty('hint');
  });

  it('a singular two groups share is refused naming both qualified forms', () => {
    const p = refused('widget');
    expect(p.detail).toBe(
      'resourceType "widget" is served by several groups; name one: widget.alpha.dev, widget.zeta.dev',
    );
    expect(p.hint).toBe('did you mean widget.alpha.dev or widget.zeta.dev?');
    expect(p.candidates).toEqual(['widget.alpha.dev', 'widget.zeta.dev']);
    expect(refused('Widget').candidates).toEqual(['widget.alpha.dev', 'widget.zeta.dev']);
  });

  it('three groups sharing a singular are all named', () => {
    const widgetB = kind('widget.beta.dev', 'beta.dev', 'widgets', true);
    const p = refused('widget', ANY, [widgetA, widgetB, widgetZ]);
    expect(p.hint).toBe('did you mean widget.alpha.dev, widget.beta.dev or widget.zeta.dev?');
  });
});

describe('the rules where kinds are few or alike', () => {
  const deploymentElsewhere = kind('deployment.example.dev', 'example.dev', 'deployments', true);
  const networkpolicy = kind('networkpolicy', 'networking.k8s.io', 'networkpolicies', true, ['netpol']);

  it('a qualified plural names its own group only, not every group with that plural', () => {
    const kinds = [...TAILORED_KINDS, deploymentElsewhere];
    expect(refused('deployments.apps', ANY, kinds).hint).toBe('did you mean deployment?');
    expect(refused('deployments.example.dev', ANY, kinds).hint).toBe('did you mean deployment.example.dev?');
    // A bare plural is every group's.
    expect(refused('deployments', ANY, kinds).hint).toBe(
      'did you mean deployment or deployment.example.dev?',
    );
  });

  it('a known singular before an unknown group names every group that serves it', () => {
    expect(refused('widget.bogus').hint).toBe('did you mean widget.alpha.dev or widget.zeta.dev?');
  });

  it('a plural before an unknown group is found even when far from its singular', () => {
    expect(refused('networkpolicies.v1', ANY, [networkpolicy]).hint).toBe('did you mean networkpolicy?');
    expect(refused('netpol.bogus', ANY, [networkpolicy]).hint).toBe('did you mean networkpolicy?');
  });

  it('a singular only one served kind still has, named qualified, is hinted, not called shared', () => {
    // As a snapshot holds it when it took one of two groups: the name it had is kept.
    const p = refused('widget', ANY, [widgetA]);
    expect(p.hint).toBe('did you mean widget.alpha.dev?');
    expect(p.detail).toMatch(/^unknown resourceType "widget"/);
    expect(p).not.toHaveProperty('candidates');
  });

  it('another group’s kind of a tailored plural is ranked with the others', () => {
    const podsElsewhere = kind('pod.example.dev', 'example.dev', 'pods', true);
    const kinds = [podsElsewhere, ...[...TAILORED_KINDS].reverse()];
    expect(refused('gizmo', ANY, kinds).accepted).toEqual([...RESOURCE_TYPES, 'pod.example.dev']);
  });

  it('the cluster-scoped refusal lists the namespaced kinds, comma-separated', () => {
    expect(refused('node', NAMESPACED, TAILORED_KINDS).detail).toBe(
      'resourceType "node" is cluster-scoped and cannot be used under /namespaces/{namespace}; accepted values: deployment, statefulset, daemonset, job, cronjob, pod, service',
    );
  });
});

describe('events', () => {
  it('every name of either Event kind points at the events endpoint', () => {
    for (const raw of ['event', 'Event', 'events', 'ev', 'event.events.k8s.io', 'events.events.k8s.io']) {
      const p = refused(raw);
      expect(p.detail, raw).toBe(
        `resourceType "${raw}": events are not served as resources; GET /v1/workspaces/{workspaceId}/observability/prod/kubernetes-events lists them (filter with kind, name and namespace)`,
      );
      expect(p.hint).toBe('use GET /v1/workspaces/{workspaceId}/observability/prod/kubernetes-events');
    }
    expect(refused('event', NAMESPACED).hint).toContain('kubernetes-events');
  });

  it('are never among the accepted values', () => {
    for (const p of [refused('gizmo'), refused('event'), refused('gizmo', NAMESPACED)]) {
      expect(p.accepted).not.toContain('event');
      expect(p.accepted).not.toContain('event.events.k8s.io');
    }
  });

  it('an Event kind of another group is a kind like any other', () => {
    const other = kind('event.audit.example', 'audit.example', 'events', true);
    expect(resolveKind('event.audit.example', [event, other], ANY)).toBe(other);
    expect(refused('events.audit.example', ANY, [event, other]).hint).toBe(
      'did you mean event.audit.example?',
    );
  });

  it('a plural shared by an Event kind and another is hinted, not sent to the events endpoint', () => {
    const other = kind('event.audit.example', 'audit.example', 'events', true);
    expect(refused('events', ANY, [event, other]).hint).toBe('did you mean event or event.audit.example?');
  });
});

describe('scope', () => {
  it('a cluster-scoped kind is refused under a namespace', () => {
    for (const raw of [
      'storageclass',
      'StorageClass',
      'storageclass.storage.k8s.io',
      'node',
      'widget.zeta.dev',
    ]) {
      const p = refused(raw, NAMESPACED);
      expect(p.detail).toMatch(
        new RegExp(
          `^resourceType "${raw}" is cluster-scoped and cannot be used under /namespaces/\\{namespace\\}; accepted values: `,
        ),
      );
      expect(p).not.toHaveProperty('hint');
    }
  });

  it('accepted lists the nine first in the tree order, then the others in discovery order', () => {
    const all = refused('gizmo').accepted;
    expect(all).toEqual([
      ...RESOURCE_TYPES,
      'certificate',
      'configmap',
      'horizontalpodautoscaler',
      'ingress',
      'storageclass',
      'widget.alpha.dev',
      'widget.zeta.dev',
    ]);
    expect(refused('gizmo').detail).toBe(`unknown resourceType "gizmo"; accepted values: ${all.join(', ')}`);
  });

  it('under a namespace, accepted holds the namespaced kinds only', () => {
    const p = refused('gizmo', NAMESPACED);
    expect(p.accepted).toEqual([
      ...RESOURCE_TYPES.filter((t) => t !== 'node' && t !== 'namespace'),
      'certificate',
      'configmap',
      'horizontalpodautoscaler',
      'ingress',
      'widget.alpha.dev',
    ]);
    expect(refused('storageclass', NAMESPACED).accepted).toEqual(p.accepted);
    expect(refused('configmaps', NAMESPACED).accepted).toEqual(p.accepted);
  });
});
