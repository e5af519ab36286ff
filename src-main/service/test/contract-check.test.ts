import { describe, expect, it } from 'vitest';
import { checkAnswer } from './contract-check';

const EVENTS = '/v1/workspaces/default/observability/demo/kubernetes-events';
const record = {
  workspaceId: 'default',
  clusterId: 'demo',
  resourceId: 'u1',
  eventId: 'e1',
  firstTimestamp: '2026-03-01T09:00:00Z',
  lastTimestamp: '2026-03-01T09:00:00Z',
  count: 1,
  message: 'm',
  reason: 'BackOff',
  type: 'WARNING',
  involvedObject: { kind: 'Pod', name: 'p', uid: 'u1', namespace: 'default' },
  source: { component: 'kubelet', host: 'node-1' },
};
const json = 'application/json; charset=utf-8';

describe('the response check of the integration suites', () => {
  it('accepts an answer of exactly its operation’s result schema', () => {
    expect(() => checkAnswer('GET', `${EVENTS}?limit=5`, 200, json, [record])).not.toThrow();
  });

  it('fails on a field the schema does not know, and on a missing one', () => {
    expect(() => checkAnswer('GET', EVENTS, 200, json, [{ ...record, expired: true }])).toThrow(/expired/);
    const { source: _source, ...missing } = record;
    expect(() => checkAnswer('GET', EVENTS, 200, json, [missing])).toThrow(/source/);
  });

  it('matches the operation by method, path and query (the watch shares the list’s path)', () => {
    expect(() =>
      checkAnswer('GET', '/v1/health', 200, json, { status: 'ok', version: '1', extra: 1 }),
    ).toThrow(/health/);
    expect(() => checkAnswer('PATCH', '/v1/health', 200, json, { anything: true })).not.toThrow();
  });

  it('checks problem+json bodies against the problem schema and their status', () => {
    const problem = { type: 't', title: 'Not Found', status: 404, detail: 'd', code: 'cluster_not_found' };
    expect(() => checkAnswer('GET', EVENTS, 404, 'application/problem+json', problem)).not.toThrow();
    expect(() =>
      checkAnswer('GET', EVENTS, 404, 'application/problem+json', { ...problem, code: 'nope' }),
    ).toThrow();
    expect(() => checkAnswer('GET', EVENTS, 400, 'application/problem+json', problem)).toThrow(/status/);
  });
});
