import { expect, login, test } from './fixtures';

/**
 * The fixtures' promise that a route handler still running when its test ends is let finish
 * before the page closes (fixtures.ts, `context`). The first test leaves a handler in the middle
 * of a slow upstream answer, as a poll caught at the end of a test is (staleness.spec.ts's
 * route.fetch); the second, run next in the same worker, checks how that handler ended. The delay
 * stands for a slow service; nothing here waits for time.
 */

type Outcome = 'running' | 'fulfilled' | `threw: ${string}`;
let outcome: Outcome | undefined;
const SLOW_UPSTREAM_MS = 2_000;

test.describe.configure({ mode: 'serial' });

test('a test may end while a route handler is still fetching', async ({ page }) => {
  await login(page);
  let entered: () => void = () => {};
  const handling = new Promise<void>((resolve) => {
    entered = resolve;
  });
  await page.route('**/v1/workspaces/*/clusters?*', async (route) => {
    outcome = 'running';
    entered();
    try {
      await new Promise((resolve) => setTimeout(resolve, SLOW_UPSTREAM_MS));
      const res = await route.fetch();
      await route.fulfill({ response: res });
      outcome = 'fulfilled';
    } catch (err) {
      outcome = `threw: ${(err as Error).message.split('\n')[0]}`;
    }
  });
  // The shell polls the cluster list; the test ends as soon as one poll is in the handler.
  await handling;
  expect(outcome).toBe('running');
});

test('that handler finished against the open page before the test ended', () => {
  expect(outcome).toBe('fulfilled');
});
