/**
 * The recursive dependents tree of the relations contract: nested nodes are checked as strictly
 * as the top ones, and the API document describes the tree by one self-referring schema.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dependentRef, relations } from './relations-operations';

describe('the dependents tree', () => {
  it('checks every level as strictly as the first', () => {
    const tree = {
      resourceType: 'deployment',
      name: 'web',
      children: [
        { resourceType: 'replicaset', name: 'web-1', children: [{ resourceType: 'pod', name: 'web-1-a' }] },
      ],
    };
    expect(dependentRef.safeParse(tree).success).toBe(true);
    const deep = structuredClone(tree);
    (deep.children[0]!.children[0] as Record<string, unknown>).extra = 1;
    expect(dependentRef.safeParse(deep).success).toBe(false);
    expect(dependentRef.safeParse({ ...tree, truncated: false }).success).toBe(false);
  });

  it('is one self-referring schema in the API document, its children described', () => {
    const doc = z.toJSONSchema(relations, { target: 'draft-2020-12' }) as {
      $defs: Record<
        string,
        { properties: Record<string, { items?: { $ref: string }; description?: string }> }
      >;
    };
    const children = doc.$defs.DependentRef!.properties.children!;
    expect(children.items).toEqual({ $ref: '#/$defs/DependentRef' });
    expect(children.description).toMatch(/^The objects whose ownerReferences name this one/);
  });
});
