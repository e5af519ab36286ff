import { startStack } from './src-main/service/test/harness';
import { DEMO_PODS } from './src-main/simulator/index';
const stack = await startStack();
try {
  const p = DEMO_PODS.checkout;
  let r = await stack.get(`${stack.cluster}/kubernetes-proxy/namespaces/${p.namespace}/pod/${p.name}/logs?container=${p.container}&tailLines=3&timestamps=true`);
  console.log(r.status, r.contentType, JSON.stringify(r.body).slice(0, 600));
  { const res = await fetch(stack.url + `${stack.cluster}/kubernetes-proxy/namespaces/${p.namespace}/pod/${p.name}/logs?tailLines=2`, { headers: { ...stack.session.headers, accept: 'application/x-ndjson' } }); r = { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() } as never; }
  console.log(r.status, r.contentType, String(r.body).slice(0, 800));
  const b = DEMO_PODS.imagePullBackOff;
  r = await stack.get(`${stack.cluster}/kubernetes-proxy/namespaces/${b.namespace}/pod/${b.name}/logs`);
  console.log(r.status, JSON.stringify(r.body));
  const c = DEMO_PODS.crashLoop;
  r = await stack.get(`${stack.cluster}/kubernetes-proxy/namespaces/${c.namespace}/pod/${c.name}/logs?previous=true&tailLines=5`);
  console.log(r.status, JSON.stringify(r.body).slice(0, 500));
  r = await stack.get(`${stack.cluster}/kubernetes-proxy/namespaces/${p.namespace}/pod/${p.name}/logs?previous=true`);
  console.log(r.status, JSON.stringify(r.body));
  r = await stack.get(`${stack.cluster}/kubernetes-proxy/namespaces/shop/deployment/checkout/logs?tailLines=3`);
  console.log(r.status, String(r.body).slice(0, 800));
  const k = DEMO_PODS.kubeProxyOnNotReadyNode;
  r = await stack.get(`${stack.cluster}/kubernetes-proxy/namespaces/${k.namespace}/pod/${k.name}/logs`);
  console.log(r.status, JSON.stringify(r.body));
} finally { await stack.close(); }
