import { describe, expect, it } from 'vitest';
import { ownerOf } from './owner';

describe('ownerOf', () => {
  it('reads the deployment behind a ReplicaSet via pod-template-hash', () => {
    const r = ownerOf({
      metadata: {
        name: 'web-7d9c-abcde',
        namespace: 'shop',
        labels: { 'pod-template-hash': '7d9c' },
        ownerReferences: [{ kind: 'ReplicaSet', name: 'web-7d9c', uid: 'u', controller: true }],
      },
    });
    expect(r).toEqual({
      ok: true,
      kind: 'deployment',
      name: 'web',
      namespace: 'shop',
      via: 'ReplicaSet web-7d9c',
    });
  });
  it('says why an owner cannot be opened', () => {
    expect(ownerOf({ metadata: { name: 'x' } }).ok).toBe(false);
    const r = ownerOf({
      metadata: { name: 'x', ownerReferences: [{ kind: 'Rollout', name: 'r', uid: 'u' }] },
    });
    expect(r).toMatchObject({ ok: false, reason: expect.stringContaining('Rollout') });
  });
});
