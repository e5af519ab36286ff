import { describe, expect, it } from 'vitest';
import { formatHash, parseHash, type Route, useRoute } from './route';

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
    const r = parseHash('#area=nope&kind=Widgets!&tab=zzz&sel=bogus!/x');
    expect(r.area).toBe('resources');
    expect(r.kind).toBe('pod');
    expect(r.tab).toBe('overview');
    expect(r.selected).toBeNull();
  });
});

describe('route: any kind, one namespace scope', () => {
  it('round-trips a custom resource selected in its namespace', () => {
    const r: Route = {
      workspaceId: 'default',
      clusterId: 'demo',
      area: 'resources',
      kind: 'certificate.cert-manager.io',
      namespace: 'monitoring',
      selected: { kind: 'certificate.cert-manager.io', namespace: 'monitoring', name: 'grafana-tls' },
      tab: 'overview',
    };
    expect(parseHash(formatHash(r))).toEqual(r);
  });

  it('takes any kind spelled as a resourceType, and nothing else', () => {
    expect(parseHash('#kind=configmap').kind).toBe('configmap');
    expect(parseHash('#kind=ingress.networking.k8s.io').kind).toBe('ingress.networking.k8s.io');
    expect(parseHash('#kind=Pod').kind).toBe('pod');
    expect(parseHash('#kind=a..b').kind).toBe('pod');
    expect(parseHash('#kind=-a').kind).toBe('pod');
    expect(parseHash(`#kind=${'a'.repeat(254)}`).kind).toBe('pod');
    expect(parseHash(`#kind=${'a'.repeat(253)}`).kind).toBe('a'.repeat(253));
    expect(parseHash('#sel=configmap/shop/app-config').selected).toEqual({
      kind: 'configmap',
      namespace: 'shop',
      name: 'app-config',
    });
    expect(parseHash('#sel=configmap//app-config').selected).toBeNull();
    expect(parseHash('#sel=configmap/').selected).toBeNull();
    expect(parseHash('#sel=clusterissuer/letsencrypt').selected).toEqual({
      kind: 'clusterissuer',
      name: 'letsencrypt',
    });
  });

  it('keeps the namespace scope across kinds unless a list asks for another', () => {
    useRoute.setState({ namespace: 'shop', kind: 'pod', selected: null });
    useRoute.getState().openList('configmap');
    expect(useRoute.getState()).toMatchObject({ kind: 'configmap', namespace: 'shop' });
    useRoute.getState().openList('node', null);
    expect(useRoute.getState()).toMatchObject({ kind: 'node', namespace: 'shop' });
    useRoute.getState().openList('namespace', 'other');
    expect(useRoute.getState()).toMatchObject({ kind: 'namespace', namespace: 'shop' });
    useRoute.getState().openList('pod', null);
    expect(useRoute.getState()).toMatchObject({ kind: 'pod', namespace: null });
    useRoute.getState().openList('pod', 'monitoring');
    expect(useRoute.getState()).toMatchObject({ kind: 'pod', namespace: 'monitoring' });
    useRoute.getState().setNamespace('shop');
    expect(useRoute.getState()).toMatchObject({ kind: 'pod', namespace: 'shop' });
  });
});
