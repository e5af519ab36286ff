import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from './logger';

/** A logger writing to memory; `lines()` parses what it wrote so far. */
function capture(level?: string) {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = createLogger(level, sink);
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { logger, lines };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('secrets never reach a log line', () => {
  it('censors passwords, tokens, api keys and Authorization headers, at the top and one level down', () => {
    const { logger, lines } = capture('info');
    logger.info(
      {
        password: 'pw-top',
        body: { password: 'pw-nested', username: 'walt' },
        refreshToken: 'rt-top',
        grant: { refreshToken: 'rt-nested' },
        accessToken: 'at-top',
        tokens: { accessToken: 'at-nested' },
        apiKey: 'key-top',
        created: { apiKey: 'key-nested' },
        headers: { authorization: 'Bearer top', host: 'localhost' },
        req: { headers: { authorization: 'Bearer nested' } },
      },
      'signed in',
    );
    const [line] = lines();
    const text = JSON.stringify(line);
    for (const secret of ['pw-', 'rt-', 'at-', 'key-', 'Bearer']) expect(text).not.toContain(secret);
    expect(line).toMatchObject({
      msg: 'signed in',
      password: '[redacted]',
      body: { password: '[redacted]', username: 'walt' },
      refreshToken: '[redacted]',
      grant: { refreshToken: '[redacted]' },
      accessToken: '[redacted]',
      tokens: { accessToken: '[redacted]' },
      apiKey: '[redacted]',
      created: { apiKey: '[redacted]' },
      headers: { authorization: '[redacted]', host: 'localhost' },
      req: { headers: { authorization: '[redacted]' } },
    });
  });
});

describe('the log level', () => {
  it('is SKIFF_LOG_LEVEL when set', () => {
    vi.stubEnv('SKIFF_LOG_LEVEL', 'debug');
    const { logger, lines } = capture();
    logger.debug('detail');
    expect(lines().map((l) => l.msg)).toEqual(['detail']);
  });

  it('is info when SKIFF_LOG_LEVEL is not set: debug lines are dropped, info lines kept', () => {
    vi.stubEnv('SKIFF_LOG_LEVEL', undefined);
    const { logger, lines } = capture();
    logger.debug('detail');
    logger.info('started');
    logger.trace('noise');
    expect(lines().map((l) => l.msg)).toEqual(['started']);
  });

  it('is the one passed in, over SKIFF_LOG_LEVEL', () => {
    vi.stubEnv('SKIFF_LOG_LEVEL', 'debug');
    const { logger, lines } = capture('warn');
    logger.info('started');
    logger.warn('slow');
    expect(lines().map((l) => l.msg)).toEqual(['slow']);
  });
});
