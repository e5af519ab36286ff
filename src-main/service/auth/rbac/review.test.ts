/**
 * One SubjectAccessReview over HTTP: the body the simulator's apiserver reads, and every answer
 * that is not a decision. The answers a real apiserver never gives (a 2xx without
 * status.allowed, a body that is not JSON) come from a loopback server of the test's own, since
 * the simulator answers only well-formed reviews.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProblemError } from '../../errors';
import { KubeClient } from '../../kube/kube-client';
import { contextsFromYaml } from '../../kube/kubeconfig';
import { review, reviewBody, SAR_PATH } from './review';

let sim: Simulator;
let odd: Server;
let answer: { status: number; body: string } = { status: 200, body: '{}' };
let received: { method?: string; url?: string; type?: string; body: string } = { body: '' };

const clientOf = (server?: string) => {
  const source = contextsFromYaml(sim.kubeconfigYaml('sim'))[0]!;
  return new KubeClient(source.config, server ?? source.server);
};
const alice = { user: 'skiff:alice', groups: ['system:authenticated'] };

beforeAll(async () => {
  sim = await startSimulator({ tickMs: false });
  odd = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received = { method: req.method, url: req.url, type: req.headers['content-type'], body };
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((r) => odd.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await sim.close();
  await new Promise((r) => odd.close(r));
});

const oddUrl = () => `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;

async function failure(p: Promise<unknown>): Promise<ProblemError> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ProblemError);
  return err as ProblemError;
}

describe('review', () => {
  it('asks the simulator and answers its decision', async () => {
    const client = clientOf();
    try {
      expect(
        await review(client, alice, { verb: 'list', group: '', resource: 'pods', namespace: 'shop' }, 5_000),
      ).toBe(true);
      expect(await review(client, alice, { verb: 'list', group: '', resource: 'pods' }, 5_000)).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('posts a SubjectAccessReview as JSON, with only the attributes given', async () => {
    const client = clientOf(oddUrl());
    answer = { status: 201, body: '{"status":{"allowed":true}}' };
    try {
      expect(
        await review(
          client,
          alice,
          { verb: 'get', group: 'apps', resource: 'deployments', name: 'web' },
          5_000,
        ),
      ).toBe(true);
    } finally {
      await client.close();
    }
    expect(received.method).toBe('POST');
    expect(received.url).toBe(SAR_PATH);
    expect(SAR_PATH).toBe('/apis/authorization.k8s.io/v1/subjectaccessreviews');
    expect(received.type).toBe('application/json');
    expect(JSON.parse(received.body)).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: 'skiff:alice',
        groups: ['system:authenticated'],
        resourceAttributes: { verb: 'get', group: 'apps', resource: 'deployments', name: 'web' },
      },
    });
    expect(
      reviewBody(alice, {
        verb: 'get',
        group: '',
        resource: 'pods',
        subresource: 'log',
        namespace: 'n',
        name: 'p',
      }).spec.resourceAttributes,
    ).toEqual({ verb: 'get', group: '', resource: 'pods', subresource: 'log', namespace: 'n', name: 'p' });
  });

  it('is 503 authorization_unavailable for an answer without status.allowed, or not JSON', async () => {
    const client = clientOf(oddUrl());
    try {
      answer = { status: 201, body: '{"status":{}}' };
      const noDecision = await failure(
        review(client, alice, { verb: 'list', group: '', resource: 'pods' }, 5_000),
      );
      expect(noDecision.code).toBe('authorization_unavailable');
      expect(noDecision.status).toBe(503);
      expect(noDecision.message).toBe(
        'cannot check access: the cluster answered the SubjectAccessReview without status.allowed',
      );
      answer = { status: 200, body: '<html>proxy</html>' };
      const notJson = await failure(
        review(client, alice, { verb: 'list', group: '', resource: 'pods' }, 5_000),
      );
      expect(notJson.code).toBe('authorization_unavailable');
      expect(notJson.message).toMatch(
        /did not answer Skiff's SubjectAccessReview: .*not JSON: <html>proxy<\/html>/,
      );
    } finally {
      await client.close();
    }
  });

  it("says Skiff's account needs create on subjectaccessreviews when the cluster refuses it", async () => {
    const client = clientOf(oddUrl());
    answer = {
      status: 403,
      body: '{"kind":"Status","code":403,"reason":"Forbidden","message":"subjectaccessreviews.authorization.k8s.io is forbidden"}',
    };
    try {
      const refused = await failure(
        review(client, alice, { verb: 'list', group: '', resource: 'pods' }, 5_000),
      );
      expect(refused.code).toBe('authorization_unavailable');
      expect(refused.message).toMatch(
        /^cannot check access: the cluster refused Skiff's SubjectAccessReview \(403: .*forbidden.*\); Skiff's own account needs "create" on subjectaccessreviews\.authorization\.k8s\.io$/,
      );
    } finally {
      await client.close();
    }
  });
});
