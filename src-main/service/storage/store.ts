/**
 * The one storage interface of the service. In plain Node it is backed by `conf`; in Electron by
 * electron-store (which is conf underneath), so the data dir has the same format either way.
 * Writes are atomic (write to a temporary file, then rename) in both.
 */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
  /** Where the data lives, for messages that must name the file. */
  readonly path: string;
}

/** For tests and for `--data-dir` being unavailable: the same interface, in memory. */
export function memoryStore(): KeyValueStore {
  const data = new Map<string, unknown>();
  return {
    path: ':memory:',
    get: (key) => structuredClone(data.get(key)),
    set: (key, value) => void data.set(key, structuredClone(value)),
    delete: (key) => void data.delete(key),
  };
}
