import { describe, expect, it } from 'vitest';
import type { ServedKind } from '../../src-shared/contract/kinds-operations';
import {
  BUILT_IN_ENTRIES,
  builtInEntry,
  catalog,
  entryFor,
  isBuiltInType,
  pluralLabel,
  resourceTypeOf,
  toEntry,
  unknownEntry,
} from './kind-catalog';

/** What the renderer calls each served kind, and the nine that stand in before /kinds answers. */

const served = (resourceType: string, kind: string, plural: string, group = ''): ServedKind => ({
  resourceType,
  plural,
  kind,
  group,
  version: 'v1',
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: ['list', 'watch'],
});

describe('pluralLabel', () => {
  it('keeps the Kind’s capitals and takes the plural’s ending', () => {
    expect(pluralLabel('ConfigMap', 'configmaps')).toBe('ConfigMaps');
    expect(pluralLabel('Ingress', 'ingresses')).toBe('Ingresses');
    expect(pluralLabel('Endpoints', 'endpoints')).toBe('Endpoints');
    expect(pluralLabel('NetworkPolicy', 'networkpolicies')).toBe('NetworkPolicies');
    expect(pluralLabel('PriorityClass', 'priorityclasses')).toBe('PriorityClasses');
  });

  it('falls back to an s when the plural is irregular', () => {
    expect(pluralLabel('Foo', 'bars')).toBe('Foos');
    expect(pluralLabel('Policy', 'policys')).toBe('Policys');
    expect(pluralLabel('Day', 'daies')).toBe('Daies');
    expect(pluralLabel('Policy', 'xpolicies')).toBe('Policys');
    expect(pluralLabel('Xo', 'xies')).toBe('Xies');
  });
});

describe('catalog', () => {
  it('labels every kind, the nine from the kinds table', () => {
    const [cm, sts] = catalog([
      served('configmap', 'ConfigMap', 'configmaps'),
      served('statefulset', 'StatefulSet', 'statefulsets', 'apps'),
    ]);
    expect(cm!.label).toEqual({ singular: 'ConfigMap', plural: 'ConfigMaps' });
    expect(sts!.label).toEqual({ singular: 'StatefulSet', plural: 'StatefulSets' });
    expect(toEntry(served('pod', 'Pod', 'pods')).label).toEqual({ singular: 'Pod', plural: 'Pods' });
  });

  it('leaves events out: they have their own area', () => {
    const kinds = catalog([
      served('event', 'Event', 'events'),
      served('event.events.k8s.io', 'Event', 'events', 'events.k8s.io'),
      served('pod', 'Pod', 'pods'),
    ]);
    expect(kinds.map((k) => k.resourceType)).toEqual(['pod']);
  });
});

describe('the nine as stand-ins', () => {
  it('carries the kinds table’s facts', () => {
    expect(builtInEntry('node')).toEqual({
      resourceType: 'node',
      plural: 'nodes',
      kind: 'Node',
      group: '',
      version: 'v1',
      namespaced: false,
      shortNames: ['no'],
      categories: [],
      verbs: ['get', 'list', 'watch'],
      label: { singular: 'Node', plural: 'Nodes' },
    });
    expect(BUILT_IN_ENTRIES.map((e) => e.resourceType)).toContain('cronjob');
    expect(BUILT_IN_ENTRIES).toHaveLength(9);
  });

  it('answers a served kind first, then one of the nine, else nothing', () => {
    const cert = toEntry(served('certificate', 'Certificate', 'certificates', 'cert-manager.io'));
    const pod = toEntry({ ...served('pod', 'Pod', 'pods'), shortNames: ['po', 'served'] });
    expect(entryFor([cert, pod], 'certificate')).toBe(cert);
    expect(entryFor([cert, pod], 'pod')).toBe(pod);
    expect(entryFor([cert], 'pod')?.shortNames).toEqual(['po']);
    expect(entryFor([cert], 'widget')).toBeUndefined();
    expect(entryFor([cert], 'node')).toBe(entryFor([], 'node'));
    expect(isBuiltInType('pod')).toBe(true);
    expect(isBuiltInType('configmap')).toBe(false);
  });
});

describe('kinds named otherwise', () => {
  const cert = toEntry(served('certificate', 'Certificate', 'certificates', 'cert-manager.io'));
  const ing = toEntry(served('ingress.networking.k8s.io', 'Ingress', 'ingresses', 'networking.k8s.io'));
  const ingExt = toEntry(served('ingress.extensions', 'Ingress', 'ingresses', 'extensions'));

  it('finds the resourceType of an apiVersion and Kind', () => {
    expect(resourceTypeOf([cert, ing, ingExt], 'cert-manager.io/v1', 'Certificate')).toBe('certificate');
    expect(resourceTypeOf([cert, ing, ingExt], 'networking.k8s.io/v1', 'Ingress')).toBe(
      'ingress.networking.k8s.io',
    );
    expect(resourceTypeOf([cert, ing, ingExt], 'extensions/v1beta1', 'Ingress')).toBe('ingress.extensions');
    expect(resourceTypeOf([cert], 'cert-manager.io/v1', 'Issuer')).toBeUndefined();
    expect(resourceTypeOf([cert], 'v1', 'Certificate')).toBeUndefined();
    // The nine are known before /kinds answers, and beside served kinds that lack them.
    expect(resourceTypeOf([], 'apps/v1', 'Deployment')).toBe('deployment');
    expect(resourceTypeOf([cert], 'v1', 'Pod')).toBe('pod');
    expect(resourceTypeOf([], 'v1', 'ConfigMap')).toBeUndefined();
  });

  it('makes an entry for a kind not served, from its resourceType alone', () => {
    expect(unknownEntry('widget.example.com', true)).toEqual({
      resourceType: 'widget.example.com',
      plural: 'widgets',
      kind: 'widget',
      group: 'example.com',
      version: '',
      namespaced: true,
      shortNames: [],
      categories: [],
      verbs: [],
      label: { singular: 'widget', plural: 'widgets' },
    });
    expect(unknownEntry('thing', false)).toMatchObject({ group: '', namespaced: false });
  });
});
