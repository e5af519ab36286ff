/**
 * The documented watch client (docs/scripts/watch-warnings.mjs) run as a user runs it, against
 * the service over real HTTP.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test-support/eventually.test-support';
import { CLUSTER_ID, type Stack, startStack } from '../../test-support/harness.test-support';
import { addEvent } from './event-watch.test-support';

const SCRIPT = join(import.meta.dirname, '../../../../docs/scripts/watch-warnings.mjs');

let stack: Stack;
let child: ChildProcess | undefined;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  child?.kill();
  await stack?.close();
});

describe('docs/scripts/watch-warnings.mjs', () => {
  it('follows the watch with an API key and prints each new warning with its explanation, and nothing else', async () => {
    const created = await stack.send<{ key: string }>('POST', '/v1/auth/api-keys', { name: 'watch example' });
    expect(created.status).toBe(201);
    const feed = stack.service.registry.allClusters()[0]!.eventFeed;
    // A warning from before the script starts is not news.
    const old = addEvent(stack, { reason: 'FailedMount' });
    await eventually(async () => expect(feed.head).toBeGreaterThan(0));
    let out = '';
    let err = '';
    child = spawn(process.execPath, [SCRIPT, CLUSTER_ID], {
      env: { ...process.env, SKIFF_URL: stack.url, SKIFF_API_KEY: created.body.key },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.setEncoding('utf8').on('data', (t: string) => (out += t));
    child.stderr!.setEncoding('utf8').on('data', (t: string) => (err += t));
    await eventually(async () => expect(feed.listenerCount, err).toBe(1), 15_000);

    addEvent(stack, { reason: 'ThisIsNormal', type: 'Normal' });
    addEvent(stack, { reason: 'BackOff', message: 'Back-off restarting failed container app' });
    addEvent(stack, { reason: 'NoSuchReasonAnywhere', message: 'something odd' });
    await eventually(async () => expect(out).toContain('NoSuchReasonAnywhere'), 15_000);

    const lines = out.trimEnd().split('\n');
    const backOff = lines.findIndex(
      (l) => l.includes('BackOff') && l.includes('Back-off restarting failed container app'),
    );
    expect(backOff, out).toBeGreaterThanOrEqual(0);
    // The explanation is the knowledge base's, fetched from /v1/guidance/BackOff.
    const guidance = await stack.get<{ title: string; meaning: string; checks: { text: string }[] }>(
      '/v1/guidance/BackOff?subject=event-reason',
    );
    expect(lines[backOff + 1]).toBe(`    ${guidance.body.title}: ${guidance.body.meaning}`);
    expect(lines[backOff + 2]).toBe(`    check first: ${guidance.body.checks[0]!.text}`);
    expect(out).toContain('(no explanation for this reason)');
    expect(out).not.toContain('ThisIsNormal');
    expect(out).not.toContain(old);
    expect(out).not.toContain('FailedMount');
    child.kill();
    await eventually(async () => expect(feed.listenerCount).toBe(0));
  }, 60_000);
});
