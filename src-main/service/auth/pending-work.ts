/**
 * Writes that run after their request has answered (a failed login is logged once the 401 has
 * gone, so the write cannot make a known name measurably slower). The service's close waits for
 * them: a write that lands after close, once the caller has removed the data dir, recreates it.
 */
export class PendingWork {
  private readonly running = new Set<Promise<void>>();

  /** Runs `task` on the next turn of the event loop; its failure goes to `onError`, never unhandled. */
  later(task: () => Promise<void>, onError: (err: unknown) => void): void {
    const done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch(onError)
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  /** Settles once nothing is pending, including work that pending work started. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
