import { useCallback, useEffect, useRef, useState } from 'react';
import { type ApiError, syncingOf } from '../api';

export interface Polled<T> {
  data: T | undefined;
  error: ApiError | Error | null;
  /** True until the first answer for this key (data or error). */
  loading: boolean;
  /** True while a request is out, including background refreshes. */
  fetching: boolean;
  updatedAt: number | null;
  reload(): void;
}

export interface PollOptions {
  /** Milliseconds between the end of one fetch and the start of the next; 0 fetches once. */
  intervalMs: number;
  /** Keep showing the previous key's data until the new key answers (filters typed into a box). */
  keepPrevious?: boolean;
}

interface Slot<T> {
  key: string | null;
  data: T | undefined;
  error: ApiError | Error | null;
  answered: boolean;
  fetching: boolean;
  updatedAt: number | null;
}

const isAbort = (err: unknown) => (err as Error | undefined)?.name === 'AbortError';

/**
 * Fetches `key`'s data and refetches it while the window is visible. Old data stays on screen
 * during a refresh and across a failed one, so tables do not flash and an unreachable cluster
 * shows its last known state beside the error, then recovers by itself on the next success.
 * A slow answer stretches the interval (three times the last fetch) so a huge list does not
 * keep the service permanently busy. A 503 cluster_syncing (a list still arriving from the
 * cluster) is asked for again after its Retry-After instead.
 */
export function usePolling<T>(
  key: string | null,
  fetcher: (signal: AbortSignal) => Promise<T>,
  options: PollOptions,
): Polled<T> {
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const [slot, setSlot] = useState<Slot<T>>({
    key,
    data: undefined,
    error: null,
    answered: false,
    fetching: false,
    updatedAt: null,
  });
  const [generation, setGeneration] = useState(0);
  const { intervalMs, keepPrevious = false } = options;

  // biome-ignore lint/correctness/useExhaustiveDependencies: generation is the reload() trigger, read by no code inside
  useEffect(() => {
    if (key === null) {
      setSlot({ key, data: undefined, error: null, answered: false, fetching: false, updatedAt: null });
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | null = null;
    let disposed = false;
    setSlot((prev) =>
      prev.key === key
        ? prev
        : {
            key,
            data: keepPrevious ? prev.data : undefined,
            error: null,
            answered: false,
            fetching: true,
            updatedAt: keepPrevious ? prev.updatedAt : null,
          },
    );

    const run = async () => {
      if (disposed) return;
      controller = new AbortController();
      const started = performance.now();
      // The same object when nothing changes, so React skips the render.
      setSlot((prev) => (prev.fetching ? prev : { ...prev, fetching: true }));
      let retryAfterMs: number | undefined;
      try {
        const data = await fetcherRef.current(controller.signal);
        if (disposed) return;
        setSlot({ key, data, error: null, answered: true, fetching: false, updatedAt: Date.now() });
      } catch (err) {
        if (disposed || isAbort(err)) return;
        setSlot((prev) => ({ ...prev, key, error: err as Error, answered: true, fetching: false }));
        // A list still arriving from the cluster: asked again when the service said, even by a
        // view that fetches once, and not stretched by how long the service made this one wait.
        retryAfterMs = syncingOf(err)?.retryAfterMs;
      }
      if (disposed || document.visibilityState !== 'visible') return;
      if (retryAfterMs !== undefined) timer = setTimeout(run, retryAfterMs);
      else if (intervalMs > 0)
        timer = setTimeout(run, Math.max(intervalMs, (performance.now() - started) * 3));
    };

    const onVisibility = () => {
      if (document.visibilityState !== 'visible' || intervalMs === 0) return;
      clearTimeout(timer);
      void run();
    };
    document.addEventListener('visibilitychange', onVisibility);
    void run();
    return () => {
      disposed = true;
      clearTimeout(timer);
      controller?.abort();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [key, intervalMs, keepPrevious, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const current = slot.key === key || keepPrevious;
  return {
    data: current ? slot.data : undefined,
    error: slot.key === key ? slot.error : null,
    loading: !(slot.key === key && slot.answered),
    fetching: slot.fetching,
    updatedAt: current ? slot.updatedAt : null,
    reload,
  };
}
