/**
 * Test support for the snapshots of recorded data (issue 27 §5): the service's own recorders off,
 * so a file holds exactly the rows a test seeds into the app's database (the recorders are their
 * own modules' to test).
 */
import type { ServiceConfig } from '../index';

export const RECORDERS_OFF = {
  changeHistory: { record: 'off' },
  usage: { intervalMs: 0 },
  keptLogs: { mode: 'off', lines: 500, maxBytes: 2 ** 30 },
} as const satisfies Partial<ServiceConfig>;
