import { pino } from 'pino';

export type Logger = pino.Logger;

/**
 * Structured logs to stderr, so stdout stays free for the one `listening on` line scripts wait for.
 * Secrets never reach a log line: the redaction list is the last line of defence, not the first.
 */
export function createLogger(
  level: string = process.env.SKIFF_LOG_LEVEL ?? 'info',
  destination: pino.DestinationStream = pino.destination(2),
): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'password',
          '*.password',
          'refreshToken',
          '*.refreshToken',
          'accessToken',
          '*.accessToken',
          'headers.authorization',
          '*.headers.authorization',
          'apiKey',
          '*.apiKey',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

export const silentLogger = (): Logger => pino({ level: 'silent' });
