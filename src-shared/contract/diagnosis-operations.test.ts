import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DEFAULT_WINDOW_MS,
  diagnosis,
  diagnosisOperations,
  MAX_WINDOW_MS,
  windowParam,
} from './diagnosis-operations';

const query = z.strictObject({ window: windowParam });
const refused = 'window must be a duration such as 30s, 30m, 2h or 1d, from 1s to 7d';

describe('diagnosis contract', () => {
  it('window: a duration from 1s to 7d, default 30m', () => {
    expect(query.parse({}).window).toBe(DEFAULT_WINDOW_MS);
    expect(DEFAULT_WINDOW_MS).toBe(30 * 60_000);
    expect(query.parse({ window: '1s' }).window).toBe(1_000);
    expect(query.parse({ window: '45s' }).window).toBe(45_000);
    expect(query.parse({ window: '30m' }).window).toBe(1_800_000);
    expect(query.parse({ window: '2h' }).window).toBe(7_200_000);
    expect(query.parse({ window: '7d' }).window).toBe(MAX_WINDOW_MS);
    expect(MAX_WINDOW_MS).toBe(7 * 86_400_000);
    expect(query.parse({ window: '168h' }).window).toBe(MAX_WINDOW_MS);
  });

  it('window: anything else is refused, saying what it takes', () => {
    for (const bad of [
      '0s',
      '999ms',
      '8d',
      '169h',
      'soon',
      '30',
      ' 30m',
      '30m ',
      '1w',
      '-1s',
      '1234567890s',
      '',
    ])
      expect(query.safeParse({ window: bad }).error?.issues.map((i) => i.message)).toEqual([refused]);
  });

  it('the two reads: paths, one answer each, the same result', () => {
    expect(diagnosisOperations.getDiagnosis.path).toBe(
      '/v1/workspaces/:workspaceId/observability/:clusterId/diagnosis/:resourceType/:resourceName',
    );
    expect(diagnosisOperations.getNamespacedDiagnosis.path).toBe(
      '/v1/workspaces/:workspaceId/observability/:clusterId/diagnosis/namespaces/:namespace/:resourceType/:resourceName',
    );
    for (const op of Object.values(diagnosisOperations)) {
      expect(op.method).toBe('GET');
      expect(op.paginated).toBe(false);
      expect(op.auth).toBe('credential');
      expect(op.result).toBe(diagnosis);
    }
  });
});
