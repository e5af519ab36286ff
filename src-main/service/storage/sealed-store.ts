import type { Logger } from '../logger';
import type { KeyValueStore } from './store';

export interface SealableStore extends KeyValueStore {
  /** From now on writes are dropped (and logged): the service that owned the store has closed. */
  seal(): void;
}

/**
 * A store that stops writing once its service has closed. A request cut off by close may still
 * finish its work afterwards; its write would recreate a data dir the caller has already removed
 * (conf creates missing folders), so it is dropped instead. Reads keep working.
 */
export function sealable(store: KeyValueStore, logger: Logger): SealableStore {
  let sealed = false;
  const refused = (op: string, key: string) => {
    logger.warn({ path: store.path, key }, `${op} after the service closed was dropped`);
  };
  return {
    path: store.path,
    get: (key) => store.get(key),
    set(key, value) {
      if (sealed) refused('write', key);
      else store.set(key, value);
    },
    delete(key) {
      if (sealed) refused('delete', key);
      else store.delete(key);
    },
    seal() {
      sealed = true;
    },
  };
}
