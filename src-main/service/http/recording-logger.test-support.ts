import { pino } from 'pino';
import type { Logger } from '../logger';

export interface LogEntry {
  level: number;
  msg?: string;
  err?: { type?: string; message?: string; stack?: string };
  [key: string]: unknown;
}

/** pino's numeric levels: 50 is error, 40 warn. */
export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/** A logger at debug that keeps every entry, for tests that assert on what the service logged. */
export function recordingLogger(): { logger: Logger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const logger = pino(
    { level: 'debug' },
    {
      write(line: string) {
        entries.push(JSON.parse(line) as LogEntry);
      },
    },
  );
  return { logger, entries };
}
