/**
 * Reusable buffers for JSON response bodies.
 *
 * Every fresh ArrayBuffer counts as external memory, and V8 answers its growth by collecting the
 * whole heap, the clusters' caches included. At a few hundred list pages a second that was a full
 * collection several times a second: a loop allocating 128 KB buffers next to a 100 MB heap ran
 * 137 mark-compacts in 3 s, and 2 when it reused them. So a body's buffer goes back here once
 * its response has been handed to the socket, and the next body of that size class takes it.
 */

/** Below this a body uses Node's own small-buffer slab; a class is a power of two from here. */
const MIN_CLASS_BYTES = 16 * 1024;
/** Larger bodies are rare (pages of 1,000 objects) and not worth holding on to. */
const MAX_CLASS_BYTES = 4 * 1024 * 1024;

export class BodyBuffers {
  private readonly free = new Map<number, Buffer[]>();
  private pooled = 0;

  /** `maxPooledBytes` bounds what idle buffers may hold, whatever the traffic was. */
  constructor(private readonly maxPooledBytes = 32 * 1024 * 1024) {}

  /** Bytes held by idle buffers now. */
  get pooledBytes(): number {
    return this.pooled;
  }

  /** A buffer of at least `min` bytes, with unspecified contents. */
  take(min: number): Buffer {
    const size = sizeClass(min);
    if (size === undefined) return Buffer.allocUnsafeSlow(min);
    const reused = this.free.get(size)?.pop();
    if (reused) {
      this.pooled -= size;
      return reused;
    }
    return Buffer.allocUnsafeSlow(size);
  }

  /** Hands back a buffer `take` gave, once nothing reads it any more. */
  give(buffer: Buffer): void {
    const size = buffer.length;
    if (sizeClass(size) !== size || this.pooled + size > this.maxPooledBytes) return;
    let list = this.free.get(size);
    if (!list) {
      list = [];
      this.free.set(size, list);
    }
    list.push(buffer);
    this.pooled += size;
  }
}

function sizeClass(bytes: number): number | undefined {
  if (bytes > MAX_CLASS_BYTES) return undefined;
  let size = MIN_CLASS_BYTES;
  while (size < bytes) size *= 2;
  return size;
}

/** The service's one pool: every JSON answer goes through sendJson. */
export const bodyBuffers = new BodyBuffers();
