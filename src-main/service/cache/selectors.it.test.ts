/**
 * Label selectors over HTTP: the apiserver's semantics for valid ones, a 400 naming the
 * requirement for invalid ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceWrapper } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import { eventually } from '../test-support/eventually.test-support';
import { collectAll, type Stack, startStack } from '../test-support/harness.test-support';

let stack: Stack;
const NS = 'selector-lab';
const PODS: Record<string, Record<string, string>> = {
  'web-prod': { app: 'web', env: 'prod', tier: 'frontend' },
  'web-dev': { app: 'web', env: 'dev' },
  'api-prod': { app: 'api', env: 'prod', 'example.com/team': 'core' },
  'api-canary': { app: 'api', env: 'canary', track: '' },
  'batch-nolabel-env': { app: 'batch' },
  bare: {},
};

beforeAll(async () => {
  stack = await startStack();
  stack.sim.store.upsert({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  for (const [name, labels] of Object.entries(PODS)) {
    stack.sim.store.upsert({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: NS, labels },
      spec: { containers: [{ name: 'main', image: 'busybox' }] },
      status: { phase: 'Running' },
    });
  }
  // The service's cache learns of the new pods through its watch.
  await eventually(async () => {
    const res = await stack.get<ResourceWrapper[]>(`${stack.cluster}/kubernetes-proxy/namespaces/${NS}/pod`);
    expect(res.body).toHaveLength(Object.keys(PODS).length);
  });
});
afterAll(async () => stack?.close());

const names = async (selector: string) => {
  const q = new URLSearchParams({ labelSelector: selector, limit: '1000' });
  const items = await collectAll<ResourceWrapper>(
    stack,
    `${stack.cluster}/kubernetes-proxy/namespaces/${NS}/pod?${q}`,
  );
  return items.map((i) => i.resource.metadata.name).sort();
};

const apiserver = async (selector: string) => {
  const list = await stack.direct().listNamespacedPod({ namespace: NS, labelSelector: selector });
  return list.items.map((p) => p.metadata!.name!).sort();
};

describe('valid selectors give the apiserver semantics', () => {
  it.each([
    ['app=web', ['web-dev', 'web-prod']],
    ['app==web', ['web-dev', 'web-prod']],
    ['env!=prod', ['api-canary', 'bare', 'batch-nolabel-env', 'web-dev']],
    ['env in (prod,canary)', ['api-canary', 'api-prod', 'web-prod']],
    ['env notin (prod)', ['api-canary', 'bare', 'batch-nolabel-env', 'web-dev']],
    ['tier', ['web-prod']],
    ['!env', ['bare', 'batch-nolabel-env']],
    ['app=api,env!=canary', ['api-prod']],
    ['app in (web, api) , !tier', ['api-canary', 'api-prod', 'web-dev']],
    ['example.com/team=core', ['api-prod']],
    ['track=', ['api-canary']],
    ['', ['api-canary', 'api-prod', 'bare', 'batch-nolabel-env', 'web-dev', 'web-prod']],
  ])('%s', async (selector, expected) => {
    expect(await names(selector)).toEqual(expected);
    // And the real apiserver grammar agrees (the simulator evaluates it server-side).
    expect(await apiserver(selector)).toEqual(expected);
  });

  it('works on the cluster-wide list too', async () => {
    const q = new URLSearchParams({ labelSelector: 'example.com/team=core', limit: '1000' });
    const items = await collectAll<ResourceWrapper>(stack, `${stack.cluster}/kubernetes-proxy/pod?${q}`);
    expect(items.map((i) => `${i.resource.metadata.namespace}/${i.resource.metadata.name}`)).toContain(
      `${NS}/api-prod`,
    );
    expect(items.every((i) => i.resource.metadata.labels?.['example.com/team'] === 'core')).toBe(true);
  });
});

describe('invalid selectors get 400 naming the offending requirement', () => {
  it.each([
    ['app=web,env in (a,', 'env in (a,'],
    ['env in ()', 'env in ()'],
    ['app=web,=prod', '=prod'],
    ['bad key!=x', 'bad key!=x'],
    [`app=${'x'.repeat(64)}`, `app=${'x'.repeat(64)}`],
    ['app=web,', 'app=web,'],
    ['a=b=c', 'a=b=c'],
    ['-app=web', '-app=web'],
  ])('%s', async (selector, requirement) => {
    const q = new URLSearchParams({ labelSelector: selector });
    const res = await stack.get<Problem>(`${stack.cluster}/kubernetes-proxy/namespaces/${NS}/pod?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_label_selector');
    expect(res.body.requirement).toBe(requirement);
    expect(res.body.detail).toContain('labelSelector');
  });
});
