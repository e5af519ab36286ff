/** An Int32Array that grows by doubling: a million row indices cost 4 MB, not a million boxed numbers. */
export class GrowableInt32 {
  private data: Int32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }

  get(i: number): number {
    return this.data[i]!;
  }

  clear(): void {
    this.length = 0;
  }

  /** Index of the first element >= value, for an ascending array. */
  lowerBound(value: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.data[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
