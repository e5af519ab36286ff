import { describe, expect, it } from 'vitest';
import { type KubeLogRequest, logProblem } from './kube-log';

const req: KubeLogRequest = {
  namespace: 'shop',
  pod: 'checkout-1',
  container: 'app',
  follow: false,
  previous: false,
};

describe('the cluster refusing a log request, as the API says it', () => {
  it('a 400 is the kubelet saying this log is unavailable, in its own words', () => {
    const p = logProblem(
      400,
      { message: 'container "app" is waiting to start: ContainerCreating', reason: 'BadRequest' },
      req,
    ).toProblem();
    expect(p).toMatchObject({
      status: 400,
      code: 'log_unavailable',
      detail: 'container "app" is waiting to start: ContainerCreating',
      clusterStatus: 400,
      clusterReason: 'BadRequest',
    });
  });

  it('without a Status body the cluster status code stands in for the message, and no reason is made up', () => {
    const p = logProblem(400, undefined, req).toProblem();
    expect(p).toMatchObject({ code: 'log_unavailable', detail: 'HTTP 400', clusterStatus: 400 });
    expect(p).not.toHaveProperty('clusterReason');
    expect(logProblem(400, { message: 'm' }, req).toProblem()).not.toHaveProperty('clusterReason');
  });

  it('a 404 is the pod that is not there, named with its namespace', () => {
    const p = logProblem(
      404,
      { message: 'pods "checkout-1" not found', reason: 'NotFound' },
      req,
    ).toProblem();
    expect(p).toMatchObject({ status: 404, code: 'resource_not_found' });
    expect(p.detail).toContain('checkout-1');
    expect(p.detail).toContain('shop');
  });

  it.each([401, 403])('a %i is the cluster refusing our credentials', (code) => {
    const p = logProblem(code, { message: 'forbidden: pods/log', reason: 'Forbidden' }, req).toProblem();
    expect(p).toMatchObject({
      status: 502,
      code: 'cluster_unauthorized',
      clusterStatus: code,
      clusterReason: 'Forbidden',
    });
    expect(p.detail).toContain('forbidden: pods/log');
  });

  it.each([500, 503, 402])(
    'any other status (%i) is a cluster error naming the status and message',
    (code) => {
      const p = logProblem(code, { message: 'no route to host' }, req).toProblem();
      expect(p).toMatchObject({ status: 502, code: 'cluster_error', clusterStatus: code });
      expect(p.detail).toContain(String(code));
      expect(p.detail).toContain('no route to host');
    },
  );
});
