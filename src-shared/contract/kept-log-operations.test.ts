import { describe, expect, it } from 'vitest';
import { keptLogOperations, keptRun } from './kept-log-operations';

const { getKeptLog, listKeptLogs } = keptLogOperations;
const pod = { workspaceId: 'default', clusterId: 'c1', namespace: 'shop', resourceName: 'web-1' };

describe('the kept-log operations', () => {
  it('sit beside the live log endpoint, a kept run under its container and restart index', () => {
    expect(listKeptLogs.path).toBe(
      '/v1/workspaces/:workspaceId/observability/:clusterId/kubernetes-proxy/namespaces/:namespace/pod/:resourceName/kept-logs',
    );
    expect(getKeptLog.path).toBe(`${listKeptLogs.path}/:container/:restartCount`);
    expect(getKeptLog.produces).toEqual(['text/plain', 'application/x-ndjson']);
    expect(getKeptLog.streaming).toBe(true);
    expect(listKeptLogs.paginated).toBe(false);
  });

  it('read restartCount as a whole number up to 999999999', () => {
    const params = (restartCount: string) =>
      getKeptLog.params.safeParse({ ...pod, container: 'app', restartCount });
    expect(params('0').data?.restartCount).toBe(0);
    expect(params('999999999').data?.restartCount).toBe(999_999_999);
    for (const bad of ['', '-1', '1.5', '1e3', '1000000000', 'x', ' 1']) {
      const r = params(bad);
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0]?.message, bad).toBe(
        'restartCount must be a whole number from 0 to 999999999',
      );
    }
  });

  it('take a container as a DNS label', () => {
    expect(getKeptLog.params.safeParse({ ...pod, container: 'app-2', restartCount: '1' }).success).toBe(true);
    const bad = getKeptLog.params.safeParse({ ...pod, container: 'App', restartCount: '1' });
    expect(bad.error?.issues[0]?.message).toBe('container must be a DNS-1123 label');
  });

  it('take the live filters and a podUid, nothing else', () => {
    const q = getKeptLog.query.safeParse({
      timestamps: 'true',
      tailLines: '5',
      level: 'ERROR',
      search: 'x',
      ignoreCase: 'true',
      context: '2',
      fields: 'false',
      podUid: '6f1c-AB-09',
    });
    expect(q.success).toBe(true);
    expect(q.data).toMatchObject({ timestamps: true, tailLines: 5, podUid: '6f1c-AB-09', context: 2 });
    expect(getKeptLog.query.safeParse({}).data).toEqual({});
    for (const podUid of ['', 'a b', 'x'.repeat(65), 'ü']) {
      const r = getKeptLog.query.safeParse({ podUid });
      expect(r.success, podUid).toBe(false);
      expect(r.error?.issues[0]?.message).toBe('podUid must be a pod uid (letters, digits and -)');
    }
    expect(getKeptLog.query.safeParse({ podUid: 'x'.repeat(64) }).success).toBe(true);
    expect(getKeptLog.query.safeParse({ follow: 'true' }).success).toBe(false);
    expect(getKeptLog.query.safeParse({ previous: 'true' }).success).toBe(false);
    expect(listKeptLogs.query.safeParse({ limit: '1' }).success).toBe(false);
  });

  it('describe a kept run strictly', () => {
    const run = {
      container: 'app',
      restartCount: 0,
      podUid: 'u',
      finishedAt: '2026-11-28T02:10:00Z',
      exitCode: null,
      reason: 'Deleted',
      lines: 0,
    };
    expect(keptRun.safeParse(run).success).toBe(true);
    expect(keptRun.safeParse({ ...run, extra: 1 }).success).toBe(false);
    expect(keptRun.safeParse({ ...run, restartCount: -1 }).success).toBe(false);
  });
});
