import { isProblem, type Problem } from '../../src-shared/contract/problem';
import type { LogStreamBridge, LogStreamDown, LogStreamOpen } from '../../src-shared/ipc/log-stream';
import { ApiError } from './client';

/**
 * The text chunks of one streamed answer, over HTTP or the desktop app's MessagePort bridge: the
 * log viewer and the event watch read both the same way. Not pulling is the flow control.
 */
export interface ChunkStream {
  /** The next chunk, or null at the end of the stream. Rejects if it broke off. */
  next(): Promise<string | null>;
  cancel(): void;
}

/** A problem for a stream failure the service did not word (it did not answer, or broke off). */
export function streamProblem(
  title: string,
  status: number,
  detail: string,
  code: Problem['code'] = 'internal_error',
): Problem {
  return { type: 'about:blank', title, status, detail, code };
}

/** The problem a refused response carries, or one worded from its status line. */
export async function refusalOf(res: Response, title: string): Promise<Problem> {
  const body: unknown = await res.json().catch(() => null);
  return isProblem(body) ? body : streamProblem(title, res.status, res.statusText);
}

/**
 * Reads a response body as text chunks. A read that fails after `abort` is the end of the stream
 * (the reader cancelled it); any other failure rejects with `brokeOff(err)`.
 */
export function bodyChunks(
  body: ReadableStream<Uint8Array>,
  abort: AbortController,
  brokeOff: (err: Error) => Error,
): ChunkStream {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  return {
    async next() {
      for (;;) {
        let read: ReadableStreamReadResult<Uint8Array>;
        try {
          read = await reader.read();
        } catch (err) {
          if (abort.signal.aborted) return null;
          throw brokeOff(err as Error);
        }
        if (read.done) return null;
        const text = decoder.decode(read.value, { stream: true });
        if (text !== '') return text;
      }
    },
    cancel: () => abort.abort(),
  };
}

/**
 * Opens one stream on the preload's MessagePort bridge. `request.credit` is the window: chunks
 * main may send ahead of consumption, and each chunk consumed grants one more. Resolves once the
 * service accepted the request; a refusal, or a failure later, is an ApiError with its problem.
 */
export function openBridgeStream(bridge: LogStreamBridge, request: LogStreamOpen): Promise<ChunkStream> {
  return new Promise((resolve, reject) => {
    const chunks: string[] = [];
    let ended = false;
    let failure: ApiError | null = null;
    let wake: (() => void) | null = null;
    const notify = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const stream: ChunkStream = {
      async next() {
        while (chunks.length === 0 && !ended && !failure) await new Promise<void>((r) => (wake = r));
        const chunk = chunks.shift();
        if (chunk !== undefined) {
          // One chunk consumed, one more may come: the window stays as wide as it opened.
          handle.credit(1);
          return chunk;
        }
        if (failure) throw failure;
        return null;
      },
      cancel() {
        ended = true;
        handle.cancel();
        notify();
      },
    };
    const handle = bridge.open(request, (m: LogStreamDown) => {
      if (m.type === 'open') resolve(stream);
      else if (m.type === 'chunk') chunks.push(m.data);
      else if (m.type === 'end') ended = true;
      else {
        failure = new ApiError(m.problem);
        reject(failure);
      }
      notify();
    });
  });
}
