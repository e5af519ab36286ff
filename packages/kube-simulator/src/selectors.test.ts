import { describe, expect, it } from 'vitest';
import { resolveResource } from './resources';
import { buildFilter, fieldValue, matches, parseFieldSelector } from './selectors';
import type { KubeObject } from './types';

const pods = resolveResource('pods');
if (!pods) throw new Error('pods not registered');

const pod = (labels?: Record<string, string>, nodeName?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'p',
    namespace: 'ns',
    uid: 'u',
    resourceVersion: '1',
    creationTimestamp: '',
    ...(labels ? { labels } : {}),
  },
  spec: nodeName ? { nodeName } : {},
  status: { phase: 'Running' },
});

describe('field selectors', () => {
  it('parses =, ==, != and escapes', () => {
    expect(parseFieldSelector('metadata.name=a,spec.nodeName!=b,status.phase==Running')).toEqual({
      ok: true,
      requirements: [
        { field: 'metadata.name', op: '=', value: 'a' },
        { field: 'spec.nodeName', op: '!=', value: 'b' },
        { field: 'status.phase', op: '=', value: 'Running' },
      ],
    });
    expect(parseFieldSelector('metadata.name=a\\,b')).toEqual({
      ok: true,
      requirements: [{ field: 'metadata.name', op: '=', value: 'a,b' }],
    });
    expect(parseFieldSelector('nonsense').ok).toBe(false);
  });

  it('matches absent fields as empty strings', () => {
    expect(fieldValue(pod(), 'spec.nodeName')).toBe('');
    const f = buildFilter(pods, undefined, 'spec.nodeName=');
    expect(f.ok && matches(f.filter, pod())).toBe(true);
    expect(f.ok && matches(f.filter, pod(undefined, 'n1'))).toBe(false);
  });
});

describe('label selectors through buildFilter', () => {
  it('uses apiserver semantics for negative requirements', () => {
    const f = buildFilter(pods, 'env!=prod,tier notin (db)');
    if (!f.ok) throw new Error(f.message);
    expect(matches(f.filter, pod())).toBe(true);
    expect(matches(f.filter, pod({ env: 'prod' }))).toBe(false);
    expect(matches(f.filter, pod({ tier: 'db' }))).toBe(false);
    expect(f.filter.empty).toBe(false);
  });

  it('reports bad selectors', () => {
    const f = buildFilter(pods, 'a in (b');
    expect(f.ok).toBe(false);
    expect(buildFilter(pods, undefined, 'bogus=1')).toEqual({
      ok: false,
      message: 'field label not supported: bogus',
    });
  });
});
