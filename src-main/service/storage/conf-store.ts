import { mkdirSync } from 'node:fs';
import Conf from 'conf';
import type { KeyValueStore } from './store';

/** A data-dir file through `conf`: atomic writes, mode 0600 since it may hold credentials' hashes. */
export function confStore(dataDir: string, name: string): KeyValueStore {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const conf = new Conf<Record<string, unknown>>({
    cwd: dataDir,
    configName: name,
    configFileMode: 0o600,
    // Values are validated with zod where they are read; conf's own ajv schema would be a second truth.
    clearInvalidConfig: false,
    accessPropertiesByDotNotation: false,
  });
  return {
    path: conf.path,
    get: (key) => conf.get(key),
    set: (key, value) => conf.set(key, value),
    delete: (key) => conf.delete(key),
  };
}
