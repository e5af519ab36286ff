import { describe, expect, it } from 'vitest';
import { tableContext } from './explain.test-support';
import { explainIngress } from './explain-ingress';
import type { ObjectLike } from './findings';

const svc = (name: string, namespace = 'shop'): ObjectLike => ({ metadata: { name, namespace } });
const backend = (name: string) => ({ service: { name, port: { number: 80 } } });

function ingress(opts: {
  className?: string;
  annotationClass?: string;
  backends?: string[];
  defaultBackend?: string;
  address?: boolean;
}): ObjectLike {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: {
      name: 'web',
      namespace: 'shop',
      ...(opts.annotationClass
        ? { annotations: { 'kubernetes.io/ingress.class': opts.annotationClass } }
        : {}),
    } as ObjectLike['metadata'],
    spec: {
      ...(opts.className ? { ingressClassName: opts.className } : {}),
      ...(opts.defaultBackend ? { defaultBackend: backend(opts.defaultBackend) } : {}),
      rules: [
        {
          host: 'a.example.com',
          http: { paths: (opts.backends ?? []).map((b) => ({ path: '/', backend: backend(b) })) },
        },
        { host: 'b.example.com' },
        { http: { paths: [{ path: '/r', backend: { resource: { kind: 'Bucket', name: 'x' } } }] } },
      ],
    },
    status:
      opts.address === false ? { loadBalancer: {} } : { loadBalancer: { ingress: [{ ip: '203.0.113.1' }] } },
  };
}

describe('explainIngress', () => {
  it('a served Ingress whose backends all exist has nothing to explain', async () => {
    const ctx = tableContext({ service: [svc('web'), svc('api')] });
    expect(await explainIngress(ingress({ backends: ['web', 'api'] }), ctx)).toEqual([]);
  });

  it('without an address: the class its controller would serve, as a ref', async () => {
    const f = await explainIngress(ingress({ className: 'nginx', address: false }), tableContext({}));
    expect(f.map((x) => [x.source, x.reason, x.severity, x.guidance?.id])).toEqual([
      ['status', 'NoAddress', 'warning', 'ingress-status-noaddress'],
    ]);
    expect(f[0]?.checks).toEqual([
      {
        text: 'IngressClass nginx: its controller publishes the address.',
        ref: { resourceType: 'ingressclass', name: 'nginx' },
      },
    ]);
  });

  it('the legacy class annotation counts as the class; no class at all says a default is needed', async () => {
    const legacy = await explainIngress(
      ingress({ annotationClass: 'traefik', address: false }),
      tableContext({}),
    );
    expect(legacy[0]?.checks?.[0]?.ref).toEqual({ resourceType: 'ingressclass', name: 'traefik' });
    const none = await explainIngress(ingress({ address: false }), tableContext({}));
    expect(none[0]?.checks).toHaveLength(1);
    expect(none[0]?.checks?.[0]?.ref).toBeUndefined();
    expect(none[0]?.checks?.[0]?.text).toMatch(/default/);
    // An Ingress with no status at all has no address either.
    const bare = { ...ingress({}), status: undefined };
    expect((await explainIngress(bare, tableContext({})))[0]?.reason).toBe('NoAddress');
  });

  it('a backend Service that does not exist: one finding naming each missing one once, default backend first', async () => {
    const ctx = tableContext({ service: [svc('web'), svc('api', 'other-ns')] });
    const f = await explainIngress(
      ingress({ backends: ['web', 'api', 'api', 'gone'], defaultBackend: 'fallback' }),
      ctx,
    );
    expect(f.map((x) => [x.source, x.reason, x.severity, x.guidance?.id])).toEqual([
      ['status', 'ServiceNotFound', 'error', 'ingress-status-servicenotfound'],
    ]);
    expect(f[0]?.message).toBe('Backend Services not found in shop: fallback, api, gone');
    expect(f[0]?.checks).toEqual(
      ['fallback', 'api', 'gone'].map((name) => ({
        text: `Service ${name} does not exist.`,
        ref: { resourceType: 'service', namespace: 'shop', name },
      })),
    );
    const one = await explainIngress(ingress({ backends: ['gone'] }), tableContext({}));
    expect(one[0]?.message).toBe('Backend Service not found in shop: gone');
  });

  it('Services that cannot be read are not called missing', async () => {
    const f = await explainIngress(ingress({ backends: ['web'] }), tableContext({}, [], ['service']));
    expect(f).toEqual([]);
  });

  it('no address and a missing backend: both, address first', async () => {
    const f = await explainIngress(
      ingress({ backends: ['gone'], address: false, className: 'nginx' }),
      tableContext({}),
    );
    expect(f.map((x) => x.reason)).toEqual(['NoAddress', 'ServiceNotFound']);
  });

  it('an Ingress without a spec has only its address to explain', async () => {
    const f = await explainIngress({ metadata: { name: 'x' } }, tableContext({}));
    expect(f.map((x) => x.reason)).toEqual(['NoAddress']);
  });

  it('an Ingress with nothing but a kind, or a status without a load balancer, has no address and no class', async () => {
    const f = await explainIngress({ kind: 'Ingress' }, tableContext({}));
    expect(f.map((x) => [x.reason, x.checks?.length])).toEqual([['NoAddress', 1]]);
    expect(f[0]?.checks?.[0]?.ref).toBeUndefined();
    const noLb = await explainIngress({ ...ingress({ className: 'nginx' }), status: {} }, tableContext({}));
    expect(noLb.map((x) => x.reason)).toEqual(['NoAddress']);
  });

  it('severities come from the entries: no address is a warning, a missing backend an error', async () => {
    const f = await explainIngress(ingress({ backends: ['gone'], address: false }), tableContext({}));
    expect(f.map((x) => x.severity)).toEqual(['warning', 'error']);
  });
});
