/**
 * The event watch under `--authorize rbac` fails closed, over real HTTP against the simulator's
 * demo team: a watch across namespaces is checked again with its credential, and when the
 * cluster cannot answer the access review (reviews down, decisions expired) the watch ends with a
 * 503 ERROR rather than serving on by decisions past their lifetime. Decisions live 50 ms here
 * (the 30 s of production would make the test wait that long).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventWatchRecord } from '../../../../src-shared/contract/event-watch-operations';
import type { Problem } from '../../../../src-shared/contract/problem';
import { type Stack, startStack } from '../../test-support/harness.test-support';
import { login } from '../../test-support/login.test-support';
import { openWatch, type WatchClient } from './event-watch.test-support';

let stack: Stack;
let alice: Record<string, string>;
const open: WatchClient[] = [];
beforeAll(async () => {
  stack = await startStack({
    service: {
      authorize: { ttlMs: 50 },
      eventWatch: { heartbeatMs: 200, credentialCheckMs: 100 },
    },
  });
  const created = await stack.send('POST', '/v1/auth/accounts', {
    username: 'alice',
    password: 'alice-password-0123',
    workspaces: ['default'],
  });
  expect(created.status).toBe(201);
  alice = (await login(stack.url, 'alice', 'alice-password-0123')).headers;
}, 60_000);
afterAll(async () => {
  for (const c of open) c.close();
  if (stack) stack.sim.faults.accessReviewsDown = false;
  await stack?.close();
});

const synced = (r: EventWatchRecord) => r.type === 'SYNCED';

describe('the event watch under --authorize rbac', () => {
  it('ends with a 503 ERROR once the access reviews cannot be answered', async () => {
    const c = await openWatch(stack, { headers: alice, query: 'sendInitialEvents=false' });
    open.push(c);
    await c.until(synced);
    stack.sim.faults.accessReviewsDown = true;
    const error = await c.until((r) => r.type === 'ERROR');
    expect((error.record as { problem: Problem }).problem.status).toBe(503);
    await c.ended;
  });
});
