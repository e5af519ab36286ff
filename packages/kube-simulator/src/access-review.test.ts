import { AuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseReview, RECENT_REVIEWS } from './access-review';
import { authHeaders, harness } from './harness.test-support';
import { DEMO_TEAM, type Simulator } from './index';

let sim: Simulator;
let kc: KubeConfig;

beforeAll(async () => {
  ({ sim, kc } = await harness());
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.faults.accessReviewsDown = false;
  sim.accessReviews.reset();
});

const PATH = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

async function post(body: unknown, path = PATH) {
  const res = await fetch(sim.url + path, {
    method: 'POST',
    headers: { ...authHeaders(), 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { code: res.status, json: await res.json() };
}

interface Attrs {
  namespace?: string;
  verb: string;
  group?: string;
  resource: string;
  subresource?: string;
  name?: string;
}

async function may(who: { user?: string; groups?: string[] }, attrs: Attrs): Promise<boolean> {
  const { code, json } = await post({
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: { ...who, resourceAttributes: attrs },
  });
  expect(code).toBe(201);
  return json.status.allowed;
}

const alice = { user: 'alice@example.com', groups: ['shop-devs', 'system:authenticated'] };
const localAlice = { user: 'skiff:alice', groups: ['system:authenticated'] };

describe('SubjectAccessReview over HTTP, against the demo team', () => {
  it('lets alice (by group or as skiff:alice) read only namespace shop', async () => {
    for (const who of [alice, localAlice]) {
      expect(await may(who, { namespace: 'shop', verb: 'list', resource: 'pods' })).toBe(true);
      expect(await may(who, { namespace: 'shop', verb: 'get', resource: 'pods', subresource: 'log' })).toBe(
        true,
      );
      expect(await may(who, { namespace: 'shop', verb: 'list', resource: 'events' })).toBe(true);
      expect(
        await may(who, { namespace: 'shop', verb: 'list', group: 'apps', resource: 'deployments' }),
      ).toBe(true);
      // The Namespace object shop is in namespace shop, as the apiserver's request info has it.
      expect(await may(who, { namespace: 'shop', verb: 'get', resource: 'namespaces', name: 'shop' })).toBe(
        true,
      );
      expect(await may(who, { namespace: 'kube-system', verb: 'list', resource: 'pods' })).toBe(false);
      expect(await may(who, { verb: 'list', resource: 'pods' })).toBe(false);
      expect(await may(who, { verb: 'list', resource: 'namespaces' })).toBe(false);
      expect(await may(who, { namespace: 'shop', verb: 'delete', resource: 'pods' })).toBe(false);
    }
  });

  it('lets the demo admins read everything and write nothing', async () => {
    for (const who of [{ user: 'skiff:admin' }, { user: 'carol', groups: ['skiff-admins'] }]) {
      expect(await may(who, { verb: 'list', resource: 'pods' })).toBe(true);
      expect(
        await may(who, { namespace: 'kube-system', verb: 'get', resource: 'pods', subresource: 'log' }),
      ).toBe(true);
      expect(await may(who, { verb: 'list', resource: 'nodes' })).toBe(true);
      expect(await may(who, { verb: 'create', resource: 'pods', namespace: 'shop' })).toBe(false);
    }
    expect(
      await may({ user: 'nobody', groups: ['system:authenticated'] }, { verb: 'list', resource: 'pods' }),
    ).toBe(false);
  });

  it('answers the review with its spec and the reason of the binding that allowed it', async () => {
    const spec = {
      user: DEMO_TEAM.user,
      groups: ['system:authenticated'],
      resourceAttributes: { namespace: 'shop', verb: 'list', resource: 'pods', version: 'v1' },
    };
    const { code, json } = await post({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec,
    });
    expect(code).toBe(201);
    expect(json).toEqual({
      kind: 'SubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec,
      status: {
        allowed: true,
        reason: 'RBAC: allowed by RoleBinding "shop-devs/shop" of Role "shop-reader" to User "skiff:alice"',
      },
    });
    const denied = await post({
      spec: { user: 'nobody', resourceAttributes: { verb: 'get', resource: 'pods' } },
    });
    expect(denied.code).toBe(201);
    expect(denied.json.status).toEqual({ allowed: false });
  });

  it('is what client-node sends and reads', async () => {
    const api = kc.makeApiClient(AuthorizationV1Api);
    const review = await api.createSubjectAccessReview({
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: { user: DEMO_TEAM.adminUser, resourceAttributes: { verb: 'watch', resource: 'secrets' } },
      },
    });
    expect(review.status?.allowed).toBe(true);
    expect(review.status?.reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "skiff-demo-reader" of ClusterRole "skiff-demo-reader" to User "skiff:admin"',
    );
  });

  it('follows bindings made at run time', async () => {
    const who = { user: 'dave' };
    const attrs = { namespace: 'batch', verb: 'get', resource: 'pods', subresource: 'log' };
    expect(await may(who, attrs)).toBe(false);
    sim.store.upsert({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'dave-view', namespace: 'batch' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: DEMO_TEAM.clusterRole },
      subjects: [{ kind: 'User', name: 'dave' }],
    } as never);
    expect(await may(who, attrs)).toBe(true);
    // A ClusterRole bound by a RoleBinding grants only in the binding's namespace.
    expect(await may(who, { ...attrs, namespace: 'shop' })).toBe(false);
    expect(await may(who, { verb: 'list', resource: 'pods' })).toBe(false);
    sim.store.remove('rolebindings', 'batch', 'dave-view');
    expect(await may(who, attrs)).toBe(false);
  });

  it('says no to a non-resource request nothing grants, and yes to one a ClusterRole does', async () => {
    const ask = async (user: string, groups: string[]) =>
      (await post({ spec: { user, groups, nonResourceAttributes: { path: '/healthz', verb: 'get' } } })).json
        .status.allowed;
    expect(await ask('alice', ['shop-devs'])).toBe(false);
    // cluster-admin (bound to system:masters) has nonResourceURLs ["*"].
    expect(await ask('root', ['system:masters'])).toBe(true);
  });

  it('counts the reviews it answered and keeps the latest', async () => {
    await may(alice, { namespace: 'shop', verb: 'list', resource: 'pods' });
    await may(alice, { namespace: 'kube-system', verb: 'list', resource: 'pods' });
    await post({ spec: { user: 'x' } });
    expect(sim.accessReviews.count).toBe(2);
    expect(sim.accessReviews.recent).toEqual([
      {
        user: alice.user,
        groups: alice.groups,
        attributes: {
          namespace: 'shop',
          verb: 'list',
          group: '',
          resource: 'pods',
          subresource: '',
          name: '',
        },
        allowed: true,
      },
      {
        user: alice.user,
        groups: alice.groups,
        attributes: {
          namespace: 'kube-system',
          verb: 'list',
          group: '',
          resource: 'pods',
          subresource: '',
          name: '',
        },
        allowed: false,
      },
    ]);
    sim.accessReviews.reset();
    expect(sim.accessReviews.count).toBe(0);
    expect(sim.accessReviews.recent).toEqual([]);
  });

  it('keeps only the latest reviews', () => {
    const reviews = sim.accessReviews;
    for (let i = 0; i <= RECENT_REVIEWS; i++) {
      reviews.record({ user: `u${i}`, groups: [], attributes: { path: '/', verb: 'get' }, allowed: false });
    }
    expect(reviews.count).toBe(RECENT_REVIEWS + 1);
    expect(reviews.recent).toHaveLength(RECENT_REVIEWS);
    expect(reviews.recent[0]?.user).toBe('u1');
  });

  it('answers 503 while the authorizer is down, and counts nothing', async () => {
    sim.faults.accessReviewsDown = true;
    const { code, json } = await post({
      spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods' } },
    });
    expect(code).toBe(503);
    expect(json).toMatchObject({
      kind: 'Status',
      reason: 'ServiceUnavailable',
      message: 'the authorizer is unavailable',
      details: { retryAfterSeconds: 1 },
      code: 503,
    });
    expect(sim.accessReviews.count).toBe(0);
  });

  it('refuses bad bodies as the apiserver does', async () => {
    const bad = async (body: unknown) => {
      const { code, json } = await post(body);
      return { code, reason: json.reason, message: json.message };
    };
    expect(await bad('{')).toMatchObject({ code: 400, reason: 'BadRequest' });
    expect(await bad({ spec: { user: 7, resourceAttributes: {} } })).toMatchObject({
      code: 400,
      message: expect.stringContaining('spec.user'),
    });
    expect(await bad({ kind: 'TokenReview', spec: { user: 'a', resourceAttributes: {} } })).toMatchObject({
      code: 400,
      message: expect.stringContaining(
        'do not match the expected authorization.k8s.io/v1 SubjectAccessReview',
      ),
    });
    expect(await bad({ spec: { user: 'a' } })).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: expect.stringContaining(
        'spec.resourceAttributes: exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    });
    expect(await bad({ spec: { resourceAttributes: {}, nonResourceAttributes: {} } })).toMatchObject({
      code: 422,
      message: expect.stringContaining('spec.user: at least one of user or group must be specified'),
    });
    expect(sim.accessReviews.count).toBe(0);
  });

  it('refuses a body past 3 MiB with 413', async () => {
    const { code, json } = await post({
      spec: { user: 'a', resourceAttributes: {} },
      pad: 'x'.repeat(3 * 1024 * 1024),
    });
    expect(code).toBe(413);
    expect(json).toMatchObject({ reason: 'RequestEntityTooLarge', message: 'request entity too large' });
    expect(sim.accessReviews.count).toBe(0);
  });

  it('serves only create on the collection, and lists it in discovery', async () => {
    const get = await fetch(sim.url + PATH, { headers: authHeaders() });
    expect(get.status).toBe(405);
    const named = await post({ spec: { user: 'a', resourceAttributes: {} } }, `${PATH}/x`);
    expect(named.code).toBe(405);
    const doc = await (
      await fetch(`${sim.url}/apis/authorization.k8s.io/v1`, { headers: authHeaders() })
    ).json();
    expect(doc.resources).toContainEqual(
      expect.objectContaining({ name: 'subjectaccessreviews', verbs: ['create'] }),
    );
    const anonymous = await fetch(sim.url + PATH, { method: 'POST', body: '{}' });
    expect(anonymous.status).toBe(401);
  });
});

describe('parseReview, the body as the apiserver decodes and validates it', () => {
  const refused = (body: unknown) => {
    const r = parseReview(typeof body === 'string' ? body : JSON.stringify(body));
    if (r.ok) throw new Error('expected a refusal');
    return { code: r.status.code, reason: r.status.reason, message: r.status.message };
  };

  it('says what is wrong with the JSON or its shape', () => {
    expect(refused('{').message).toMatch(/^the body of the request was in an unknown format: SyntaxError/);
    expect(refused(7)).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: expect.stringMatching(
        /^SubjectAccessReview in version "v1" cannot be handled as a SubjectAccessReview: body: /,
      ),
    });
    expect(refused({ spec: { user: 7, groups: ['a', 1] } }).message).toMatch(
      /cannot be handled as a SubjectAccessReview: spec\.user: .+; spec\.groups\.1: /,
    );
    expect(refused({ apiVersion: 'authorization.k8s.io/v1beta1', spec: {} })).toEqual({
      code: 400,
      reason: 'BadRequest',
      message:
        'the API version in the data (authorization.k8s.io/v1beta1) and kind (undefined) do not match the expected authorization.k8s.io/v1 SubjectAccessReview',
    });
  });

  it('refuses specs the apiserver refuses, naming every field', () => {
    expect(refused({ spec: {} })).toEqual({
      code: 422,
      reason: 'Invalid',
      message:
        'SubjectAccessReview "" is invalid: spec.resourceAttributes: exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: at least one of user or group must be specified',
    });
    expect(refused({ spec: { user: 'a', resourceAttributes: {}, nonResourceAttributes: {} } }).message).toBe(
      'SubjectAccessReview "" is invalid: spec.nonResourceAttributes: cannot be specified in combination with resourceAttributes',
    );
    expect(refused({ spec: { user: '', groups: [], resourceAttributes: {} } }).message).toBe(
      'SubjectAccessReview "" is invalid: spec.user: at least one of user or group must be specified',
    );
  });

  it('takes a group without a user, and fills what is left out with ""', () => {
    expect(parseReview(JSON.stringify({ spec: { groups: ['g'], resourceAttributes: {} } }))).toEqual({
      ok: true,
      spec: { groups: ['g'], resourceAttributes: {} },
      user: '',
      groups: ['g'],
      attributes: { namespace: '', verb: '', group: '', resource: '', subresource: '', name: '' },
    });
    expect(
      parseReview(
        JSON.stringify({ spec: { user: 'u', nonResourceAttributes: { path: '/x', verb: 'get' } } }),
      ),
    ).toMatchObject({
      ok: true,
      user: 'u',
      groups: [],
      attributes: { path: '/x', verb: 'get' },
    });
    expect(parseReview(JSON.stringify({ spec: { user: 'u', nonResourceAttributes: {} } }))).toMatchObject({
      attributes: { path: '', verb: '' },
    });
    const full = { namespace: 'n', verb: 'v', group: 'g', resource: 'r', subresource: 's', name: 'x' };
    expect(parseReview(JSON.stringify({ spec: { user: 'u', resourceAttributes: full } }))).toMatchObject({
      attributes: full,
    });
  });
});
