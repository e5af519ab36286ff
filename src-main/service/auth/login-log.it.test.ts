/**
 * What a login and a refresh leave in the service's log: the line someone reviewing an incident
 * looks for (which account, which session), and none of the secrets that went over the wire.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { type AuthStack, startAuthStack } from './stack.test-support';

let stack: AuthStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function stackWithLog(level: string) {
  const sink = new PassThrough();
  const lines: string[] = [];
  sink.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const started = await startAuthStack({ config: { logger: createLogger(level, sink) } });
  stack = started;
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { s: started, lines, entries };
}

describe('the service log', () => {
  it('a login writes one info line naming the account and the session, without the password or the tokens', async () => {
    const { s, lines, entries } = await stackWithLog('info');
    const tokens = await s.login();
    const logins = entries().filter((e) => e.msg === 'login');
    expect(logins).toHaveLength(1);
    expect(logins[0]).toMatchObject({ accountId: tokens.auth.sub, sessionId: tokens.sessionId });
    const all = lines.join('\n');
    expect(all).not.toContain(TEST_ADMIN_PASSWORD);
    expect(all).not.toContain(tokens.refreshToken);
    expect(all).not.toContain(tokens.accessToken);
  });

  it('a refresh writes a debug line naming its session, and nothing at the default level', async () => {
    for (const [level, expected] of [
      ['debug', 1],
      ['info', 0],
    ] as const) {
      const { s, lines, entries } = await stackWithLog(level);
      const tokens = await s.login();
      const refreshed = await s.call<{ refreshToken: string }>('POST', '/v1/auth/refresh', {
        body: { refreshToken: tokens.refreshToken },
      });
      expect(refreshed.status).toBe(200);
      const refreshes = entries().filter((e) => e.msg === 'refresh');
      expect(refreshes, level).toHaveLength(expected);
      if (expected) expect(refreshes[0]).toMatchObject({ sessionId: tokens.sessionId });
      expect(lines.join('\n')).not.toContain(refreshed.body.refreshToken);
      await s.close();
      stack = undefined;
    }
  });
});
