import { describe, expect, it } from 'vitest';
import { formatHash, parseHash, type Route } from './route';

describe('route hash', () => {
  it('round-trips a selected namespaced object', () => {
    const r: Route = {
      workspaceId: 'default',
      clusterId: 'demo',
      area: 'resources',
      kind: 'pod',
      namespace: 'shop',
      selected: { kind: 'pod', namespace: 'shop', name: 'web-1' },
      tab: 'events',
    };
    expect(parseHash(formatHash(r))).toEqual(r);
  });
  it('falls back to safe defaults for unknown values', () => {
    const r = parseHash('#area=nope&kind=widgets&tab=zzz&sel=bogus/x');
    expect(r.area).toBe('resources');
    expect(r.kind).toBe('pod');
    expect(r.tab).toBe('overview');
    expect(r.selected).toBeNull();
  });
});
