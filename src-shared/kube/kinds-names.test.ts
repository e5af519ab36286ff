import { describe, expect, it } from 'vitest';
import { NAMESPACED_TYPES, RESOURCE_KINDS, RESOURCE_TYPES, resolveResourceType } from './kinds';
import { isDns1035Label, isDnsLabel, isDnsSubdomain, validateResourceName } from './names';

describe('resource kinds table', () => {
  it('lists the spec kinds in order', () => {
    expect(RESOURCE_TYPES).toEqual([
      'node',
      'namespace',
      'deployment',
      'statefulset',
      'daemonset',
      'job',
      'cronjob',
      'pod',
      'service',
    ]);
  });
  it('has consistent entries', () => {
    for (const t of RESOURCE_TYPES) {
      const info = RESOURCE_KINDS[t];
      expect(info.singular).toBe(t);
      expect(info.type).toBe(t.toUpperCase());
      expect(info.kind.toLowerCase()).toBe(t);
      expect(info.plural).toBe(`${t}s`);
      const expectedPath = info.group === '' ? '/api/v1' : `/apis/${info.group}/v1`;
      expect(info.apiPath).toBe(expectedPath);
    }
  });
  it('knows groups and scope', () => {
    expect(RESOURCE_KINDS.pod).toMatchObject({
      group: '',
      apiPath: '/api/v1',
      namespaced: true,
      kind: 'Pod',
    });
    expect(RESOURCE_KINDS.node.namespaced).toBe(false);
    expect(RESOURCE_KINDS.namespace.namespaced).toBe(false);
    expect(RESOURCE_KINDS.statefulset).toMatchObject({ group: 'apps', kind: 'StatefulSet' });
    expect(RESOURCE_KINDS.cronjob).toMatchObject({
      group: 'batch',
      apiPath: '/apis/batch/v1',
      kind: 'CronJob',
    });
  });
  it('names each kind the way people read it', () => {
    expect(RESOURCE_KINDS.statefulset.label).toEqual({ singular: 'StatefulSet', plural: 'StatefulSets' });
    expect(RESOURCE_KINDS.cronjob.label).toEqual({ singular: 'CronJob', plural: 'CronJobs' });
    for (const t of RESOURCE_TYPES) {
      const { kind, label } = RESOURCE_KINDS[t];
      expect(label.singular).toBe(kind);
      expect(label.plural.toLowerCase()).toBe(RESOURCE_KINDS[t].plural);
    }
  });
  it('lists the namespaced kinds in tree order, without nodes and namespaces', () => {
    expect(NAMESPACED_TYPES).toEqual([
      'deployment',
      'statefulset',
      'daemonset',
      'job',
      'cronjob',
      'pod',
      'service',
    ]);
  });
});

describe('resolveResourceType', () => {
  it.each(['pod', 'Pod', 'POD', ' pod ', 'StatefulSet', 'cronjob'])('accepts %j', (input) => {
    const r = resolveResourceType(input);
    expect(r.ok).toBe(true);
  });
  it('returns the info', () => {
    const r = resolveResourceType('Deployment');
    expect(r.ok && r.info.apiPath).toBe('/apis/apps/v1');
  });
  it.each([
    ['pods', 'pod'],
    ['Deployments', 'deployment'],
    ['po', 'pod'],
    ['deploy', 'deployment'],
    ['svc', 'service'],
    ['ns', 'namespace'],
    ['no', 'node'],
    ['ds', 'daemonset'],
    ['sts', 'statefulset'],
    ['cj', 'cronjob'],
    ['deployments.apps', 'deployment'],
    ['deploymnet', 'deployment'],
    ['serivce', 'service'],
  ])('%j is refused with hint %j', (input, expected) => {
    const r = resolveResourceType(input);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.hint).toBe(`did you mean ${expected}?`);
      expect(r.message).toContain(input);
    }
  });
  it('names all accepted values for unknown input', () => {
    const r = resolveResourceType('ingress');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.hint).toBeUndefined();
      for (const t of RESOURCE_TYPES) expect(r.message).toContain(t);
    }
    const empty = resolveResourceType('');
    expect(empty.ok).toBe(false);
  });
});

describe('DNS name predicates', () => {
  it('isDnsLabel', () => {
    expect(isDnsLabel('a')).toBe(true);
    expect(isDnsLabel('1abc')).toBe(true);
    expect(isDnsLabel('my-name')).toBe(true);
    expect(isDnsLabel('a'.repeat(63))).toBe(true);
    expect(isDnsLabel('a'.repeat(64))).toBe(false);
    expect(isDnsLabel('')).toBe(false);
    expect(isDnsLabel('-a')).toBe(false);
    expect(isDnsLabel('a-')).toBe(false);
    expect(isDnsLabel('A')).toBe(false);
    expect(isDnsLabel('a.b')).toBe(false);
    expect(isDnsLabel('a_b')).toBe(false);
  });
  it('isDns1035Label', () => {
    expect(isDns1035Label('web')).toBe(true);
    expect(isDns1035Label('1web')).toBe(false);
  });
  it('isDnsSubdomain', () => {
    expect(isDnsSubdomain('a.b.c')).toBe(true);
    expect(isDnsSubdomain('web-0')).toBe(true);
    expect(isDnsSubdomain('a..b')).toBe(false);
    expect(isDnsSubdomain('.a')).toBe(false);
    expect(isDnsSubdomain('a.')).toBe(false);
    expect(isDnsSubdomain('A.b')).toBe(false);
    expect(isDnsSubdomain('a'.repeat(253))).toBe(true);
    expect(isDnsSubdomain('a'.repeat(254))).toBe(false);
  });
});

describe('validateResourceName', () => {
  it.each([
    ['namespace', 'kube-system', null],
    ['namespace', 'my.ns', /RFC 1123 label/],
    ['Namespace', 'Prod', /invalid namespace name "Prod"/],
    ['service', 'web', null],
    ['service', '1web', /RFC 1035 label/],
    ['service', 'web.api', /RFC 1035 label/],
    ['pod', 'web-7d9c.abc', null],
    ['pod', 'Web', /RFC 1123 subdomain/],
    ['deployment', 'a'.repeat(253), null],
    ['deployment', 'a'.repeat(254), /subdomain/],
    ['node', 'ip-10-0-0-1.ec2.internal', null],
    ['cronjob', 'a'.repeat(52), null],
    ['cronjob', 'a'.repeat(53), /52 characters/],
    ['job', 'a'.repeat(64), /63 characters/],
    ['pod', '', /name is required/],
    ['configmap', 'a.b', null],
  ])('%s %j', (kind, name, expected) => {
    const r = validateResourceName(kind, name);
    if (expected === null) expect(r).toBeNull();
    else expect(r).toMatch(expected);
  });
});
