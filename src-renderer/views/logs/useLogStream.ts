import { useEffect, useRef, useState } from 'react';
import type { LogQueryInput } from '../../../src-shared/contract/log-operations';
import { type LogStream, type LogTarget, openLogStream } from '../../api/log-stream';
import type { BufferClient } from './buffer-client';
import type { ViewStats } from './model';
import { pump } from './pump';

export type StreamStatus = 'connecting' | 'live' | 'loading' | 'ended' | 'error';

export interface StreamRequest {
  container?: string;
  previous: boolean;
  follow: boolean;
  /** Lines of history per container; undefined: all the kubelet has. */
  tailLines?: number;
}

export const EMPTY_STATS: ViewStats = {
  total: 0,
  rows: 0,
  matches: 0,
  searching: false,
  sources: 0,
  dropped: 0,
  structured: 0,
};

/**
 * Runs one log stream into the buffer for as long as the target and request stay the same; any
 * change starts over with an empty buffer. `onStats` is called for every parsed chunk.
 */
export function useLogStream(
  target: LogTarget,
  request: StreamRequest,
  buffer: BufferClient | null,
  onStats: (s: ViewStats) => void,
  generation: number,
): { status: StreamStatus; error: unknown } {
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const [error, setError] = useState<unknown>(null);
  const onStatsRef = useRef(onStats);
  onStatsRef.current = onStats;

  const { workspaceId, clusterId, namespace, resourceType, name } = target;
  const { container, previous, follow, tailLines } = request;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` restarts the stream on demand (Reload).
  useEffect(() => {
    if (!buffer) return;
    const abort = new AbortController();
    let stream: LogStream | null = null;
    const publish = (s: ViewStats) => onStatsRef.current(s);
    // The viewer shows the raw line: the parsed fields would double what crosses the wire.
    const query: LogQueryInput = {
      fields: 'false',
      ...(container ? { container } : {}),
      ...(previous ? { previous: 'true' } : {}),
      ...(follow && !previous ? { follow: 'true' } : {}),
      ...(tailLines !== undefined ? { tailLines: String(tailLines) } : {}),
    };
    setStatus('connecting');
    setError(null);
    void buffer.clear().then(publish);
    void (async () => {
      try {
        stream = await openLogStream({ workspaceId, clusterId, namespace, resourceType, name }, query);
        if (abort.signal.aborted) return stream.cancel();
        setStatus(follow && !previous ? 'live' : 'loading');
        await pump(stream, buffer, publish, abort.signal);
        // Stats reach the screen on the next frame; "Complete" must not show beside a stale count.
        await new Promise((r) => requestAnimationFrame(r));
        if (!abort.signal.aborted) setStatus('ended');
      } catch (err) {
        if (abort.signal.aborted) return;
        setError(err);
        setStatus('error');
      }
    })();
    return () => {
      abort.abort();
      stream?.cancel();
    };
  }, [
    workspaceId,
    clusterId,
    namespace,
    resourceType,
    name,
    container,
    previous,
    follow,
    tailLines,
    buffer,
    generation,
  ]);

  return { status, error };
}
