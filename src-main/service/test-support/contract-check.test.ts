import { describe, expect, it } from 'vitest';
import { checkAnswer, checkRecord, checkRecordText } from './contract-check.test-support';

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

  it('checks each record of a stream against its operation’s record schema, strictly', () => {
    const change = { type: 'ADDED', id: '7', event: record };
    expect(() => checkRecord('watchEvents', 'text/event-stream', change)).not.toThrow();
    expect(() =>
      checkRecord('watchEvents', 'application/x-ndjson', { type: 'SYNCED', id: '7' }),
    ).not.toThrow();
    expect(() => checkRecord('watchEvents', 'text/event-stream', { ...change, extra: 1 })).toThrow(
      /Unrecognized key: "extra"/,
    );
    expect(() => checkRecord('watchEvents', 'text/event-stream', { type: 'SYNCED' })).toThrow(/id/);
    expect(() => checkRecord('watchEvents', 'text/event-stream', { type: 'HELLO' })).toThrow(/type/);
    const line = {
      type: 'line',
      pod: 'p',
      container: 'c',
      level: 'INFO',
      format: 'plain',
      message: 'm',
      raw: 'm',
    };
    expect(() => checkRecordText('getLogs', 'application/x-ndjson', JSON.stringify(line))).not.toThrow();
    expect(() =>
      checkRecordText('getLogs', 'application/x-ndjson', JSON.stringify({ ...line, pid: 1 })),
    ).toThrow(/Unrecognized key: "pid"/);
    expect(() => checkRecordText('getLogs', 'application/x-ndjson', '{"type":"line"')).toThrow(/not JSON/);
    // text/plain is lines of text, not records: there is no record schema to check it with.
    expect(() => checkRecord('getLogs', 'text/plain', line)).toThrow(/no record schema/);
  });

  it('checks a whole stream body record by record: NDJSON lines, SSE data', () => {
    const watch = `${EVENTS}?watch=true`;
    const sse = 'text/event-stream; charset=utf-8';
    const good = `retry: 1000\n\ndata: ${JSON.stringify({ type: 'ADDED', event: record })}\n\nevent: synced\nid: 3\ndata: {"type":"SYNCED","id":"3"}\n\n`;
    expect(() => checkAnswer('GET', watch, 200, sse, good)).not.toThrow();
    expect(() =>
      checkAnswer('GET', watch, 200, sse, `${good}data: {"type":"SYNCED","id":"3","at":1}\n\n`),
    ).toThrow(/Unrecognized key: "at"/);
    const ndjson = 'application/x-ndjson; charset=utf-8';
    const lines = '{"type":"SYNCED","id":"3"}\n{"type":"HEARTBEAT"}\n';
    expect(() => checkAnswer('GET', watch, 200, ndjson, lines)).not.toThrow();
    expect(() => checkAnswer('GET', watch, 200, ndjson, `${lines}{"type":"HEARTBEAT","n":2}\n`)).toThrow(
      /Unrecognized key: "n"/,
    );
  });
});
