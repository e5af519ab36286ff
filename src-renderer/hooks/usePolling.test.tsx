// @vitest-environment happy-dom
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../src-shared/contract/problem';
import { ApiError } from '../api';
import { usePolling } from './usePolling';

/**
 * usePolling's answer to a list still arriving from the cluster (503 cluster_syncing): it asks
 * again after the service's Retry-After, even where the view fetches only once, and any other
 * error waits for the view's own schedule.
 */

afterEach(cleanup);

const syncing = (items: number): ApiError =>
  new ApiError({
    type: 'https://skiff.dev/problems/cluster-syncing',
    title: 'Service Unavailable',
    status: 503,
    code: 'cluster_syncing',
    detail: `the first list is still arriving (${items} objects so far)`,
    progress: { items },
    retryAfterSeconds: 1,
  } as Problem);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('usePolling', () => {
  it('asks again after Retry-After while the list is still arriving, then shows the answer', async () => {
    let calls = 0;
    const { result } = renderHook(() =>
      usePolling(
        'k',
        async () => {
          calls++;
          if (calls < 3) throw syncing(calls * 100);
          return 'listed';
        },
        // A view that fetches once: without Retry-After it would never ask again.
        { intervalMs: 0 },
      ),
    );
    await waitFor(() => expect(result.current.error).toBeInstanceOf(ApiError));
    await waitFor(() => expect(result.current.data).toBe('listed'), { timeout: 10_000 });
    expect(calls).toBe(3);
    expect(result.current.error).toBeNull();
  });

  it('does not ask again for any other error when the view fetches once', async () => {
    let calls = 0;
    const { result } = renderHook(() =>
      usePolling(
        'k',
        async () => {
          calls++;
          throw new ApiError({
            type: 'about:blank',
            title: 'Service Unavailable',
            status: 503,
            code: 'internal_error',
            detail: 'not a list in progress',
          });
        },
        { intervalMs: 0 },
      ),
    );
    await waitFor(() => expect(result.current.error).toBeInstanceOf(ApiError));
    await sleep(1_500);
    expect(calls).toBe(1);
  });
});
