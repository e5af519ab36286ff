import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../../src-shared/contract/problem';
import { silentLogger } from '../logger';
import { openDatabaseStorage } from '../storage/index';
import { postgresSkipReason, startPostgres, type TestPostgres } from '../storage/postgres.test-support';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { type AuthStack, FakeClock, startAuthStack } from './stack.test-support';

/**
 * Two services on one PostgreSQL database, as two replicas behind a load balancer, over real HTTP:
 * a token one signs is accepted by the other (signing keys in the database, signing-keys.ts), and
 * failed logins on one count on the other (login-limits.ts). One server per file, a database per test.
 */

let pg: TestPostgres | undefined;
beforeAll(async () => {
  if (!postgresSkipReason) pg = await startPostgres();
});
afterAll(() => pg?.stop());

const stacks: AuthStack[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.close()));
});

async function replicas(count: number): Promise<AuthStack[]> {
  const url = await pg!.createDatabase();
  const secretKey = randomBytes(32).toString('base64');
  const clock = new FakeClock();
  const started: AuthStack[] = [];
  for (let i = 0; i < count; i++) {
    const storage = await openDatabaseStorage({ url, logger: silentLogger(), replicaId: `replica-${i}` });
    const stack = await startAuthStack({ clock, auth: { secretKey }, config: { storage } });
    stacks.push(stack);
    started.push(stack);
  }
  return started;
}

describe.skipIf(postgresSkipReason !== undefined)('replicas on one PostgreSQL database', () => {
  it("accept each other's access tokens", async () => {
    const [a, b] = (await replicas(2)) as [AuthStack, AuthStack];
    const fromA = await a.login();
    const fromB = await b.login();
    for (const [stack, tokens] of [
      [b, fromA],
      [a, fromB],
    ] as const) {
      const me = await stack.call<{ account: { username: string } }>('GET', '/v1/auth/me', {
        headers: tokens.bearer,
      });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ account: { username: 'admin' } });
    }
  });

  it('count failed logins together: failures on one make the other refuse that source with 429', async () => {
    const [a, b] = (await replicas(2)) as [AuthStack, AuthStack];
    const attempt = (stack: AuthStack) =>
      stack.call<Problem>('POST', '/v1/auth/login', {
        body: { username: 'admin', password: 'wrong-password-000' },
      });
    // Five free failures per account and address (DEFAULT_RATE_LIMITS), spread over both replicas.
    for (const stack of [a, b, a, b, a]) expect((await attempt(stack)).status).toBe(401);
    const refused = await attempt(b);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited' });
    expect(refused.headers['retry-after']).toBe('30');
    // The right password from that address waits as well, on either replica.
    const right = await a.call<Problem>('POST', '/v1/auth/login', {
      body: { username: 'admin', password: TEST_ADMIN_PASSWORD },
    });
    expect(right.status).toBe(429);
  });
});
