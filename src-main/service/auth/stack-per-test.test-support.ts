import { afterEach, expect } from 'vitest';
import type { ActivityEntry } from '../../../src-shared/contract/auth-models';
import { type AuthStack, startAuthStack } from './stack.test-support';

/**
 * Starts an auth stack inside the test that needs it (so no rule's fixture lives in a beforeAll)
 * and closes it after that test. Called once at the top of a test file.
 */
export function stackPerTest(): (opts?: Parameters<typeof startAuthStack>[0]) => Promise<AuthStack> {
  let stack: AuthStack | undefined;
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });
  return async (opts = {}) => {
    stack = await startAuthStack(opts);
    return stack;
  };
}

/** The activity log as the caller with `bearer` reads it, with `query` (starting with `?`). */
export async function activityOf(
  s: AuthStack,
  bearer: Record<string, string>,
  query: string,
): Promise<ActivityEntry[]> {
  const res = await s.call<ActivityEntry[]>('GET', `/v1/auth/activity${query}`, { headers: bearer });
  expect(res.status).toBe(200);
  return res.body;
}
