/**
 * The pair of reads a view of one object is served by: where each lives, what it takes (the
 * view's own resourceType and name rules, a valid namespace, nothing more) and what it answers.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clusterParams, objectReads } from './object-reads';

const result = z.strictObject({ ok: z.boolean() });
// Built inside each test, not as the file loads: a mutant of objectReads must meet a test.
const build = () =>
  objectReads({
    base: '/v1/workspaces/:workspaceId/observability/:clusterId/views',
    result,
    resourceType: z.literal('any'),
    namespacedResourceType: z.literal('namespaced'),
    resourceName: z.string().regex(/^[a-z]+$/),
    summary: 'across namespaces',
    namespacedSummary: 'in one namespace',
  });
const cluster = { workspaceId: 'ws', clusterId: 'c1' };

describe('objectReads', () => {
  let reads: ReturnType<typeof build>;
  beforeEach(() => {
    reads = build();
  });

  it('serves the object by kind and name, and by namespace, kind and name, under the view', () => {
    expect(reads.anywhere.path).toBe(
      '/v1/workspaces/:workspaceId/observability/:clusterId/views/:resourceType/:resourceName',
    );
    expect(reads.namespaced.path).toBe(
      '/v1/workspaces/:workspaceId/observability/:clusterId/views/namespaces/:namespace/:resourceType/:resourceName',
    );
    expect(reads.anywhere.summary).toBe('across namespaces');
    expect(reads.namespaced.summary).toBe('in one namespace');
  });

  it('is one unpaged GET for a credential, answering the view’s result, with no query and no body', () => {
    for (const op of [reads.anywhere, reads.namespaced]) {
      expect(op).toMatchObject({ method: 'GET', auth: 'credential', paginated: false });
      expect(op.result).toBe(result);
      expect(op.body.safeParse(undefined).success).toBe(true);
      expect(op.body.safeParse({}).success).toBe(false);
      expect(op.query.safeParse({}).success).toBe(true);
      expect(op.query.safeParse({ limit: '1' }).success).toBe(false);
    }
  });

  it('takes the view’s resourceType for each read, its name rule, a valid namespace and nothing more', () => {
    const anywhere = { ...cluster, resourceType: 'any', resourceName: 'web' };
    expect(reads.anywhere.params.parse(anywhere)).toEqual(anywhere);
    expect(reads.anywhere.params.safeParse({ ...anywhere, resourceType: 'namespaced' }).success).toBe(false);
    expect(reads.anywhere.params.safeParse({ ...anywhere, resourceName: 'Web' }).success).toBe(false);
    expect(reads.anywhere.params.safeParse({ ...anywhere, namespace: 'default' }).success).toBe(false);
    expect(reads.anywhere.params.safeParse({ ...anywhere, workspaceId: 'WS' }).success).toBe(false);

    const namespaced = { ...cluster, namespace: 'default', resourceType: 'namespaced', resourceName: 'web' };
    expect(reads.namespaced.params.parse(namespaced)).toEqual(namespaced);
    expect(reads.namespaced.params.safeParse({ ...namespaced, resourceType: 'any' }).success).toBe(false);
    expect(reads.namespaced.params.safeParse({ ...namespaced, namespace: 'Not_A_Label' }).success).toBe(
      false,
    );
    expect(reads.namespaced.params.safeParse({ ...namespaced, resourceName: 'Web' }).success).toBe(false);
    expect(reads.namespaced.params.safeParse({ ...namespaced, clusterId: 'C1' }).success).toBe(false);
  });

  it('names the parameters in path order', () => {
    expect(Object.keys(reads.namespaced.params.shape)).toEqual([
      'workspaceId',
      'clusterId',
      'namespace',
      'resourceType',
      'resourceName',
    ]);
    expect(Object.keys(reads.anywhere.params.shape)).toEqual([
      'workspaceId',
      'clusterId',
      'resourceType',
      'resourceName',
    ]);
  });

  it('checks a cluster’s workspace and cluster ids as slugs', () => {
    const ids = z.strictObject(clusterParams);
    expect(ids.safeParse(cluster).success).toBe(true);
    expect(ids.safeParse({ ...cluster, clusterId: 'c_1' }).success).toBe(false);
    expect(ids.safeParse({ ...cluster, workspaceId: '' }).success).toBe(false);
  });
});
