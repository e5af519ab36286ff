import type { LogStream } from '../../api/log-stream';
import type { BufferClient } from './buffer-client';
import type { ViewStats } from './model';

/** Chunks handed to the worker and not yet parsed; beyond this the stream is not read. */
export const MAX_IN_FLIGHT = 4;

/**
 * Moves a log stream into the buffer worker. The next chunk is pulled from the stream only while
 * fewer than MAX_IN_FLIGHT chunks wait in the worker, so a worker that falls behind stops the
 * stream being read — which, over IPC and HTTP alike, holds the service and the cluster request.
 * Resolves at the end of the stream or on abort; rejects when the stream fails.
 */
export async function pump(
  stream: LogStream,
  buffer: Pick<BufferClient, 'ingest'>,
  onStats: (stats: ViewStats) => void,
  signal: AbortSignal,
): Promise<void> {
  const cancel = () => stream.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  const inFlight: Promise<ViewStats>[] = [];
  try {
    for (;;) {
      const chunk = await stream.next();
      if (chunk === null || signal.aborted) break;
      const parsed = buffer.ingest(chunk);
      void parsed.then((s) => {
        if (!signal.aborted) onStats(s);
      });
      inFlight.push(parsed);
      if (inFlight.length >= MAX_IN_FLIGHT) await inFlight.shift();
    }
    await Promise.all(inFlight);
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}
