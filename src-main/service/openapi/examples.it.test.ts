import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../../src-shared/contract/auth-models';
import type { ResourceWrapper } from '../../../src-shared/contract/models';
import { CLUSTER_ID, collectAll, type Stack, startStack } from '../test-support/harness.test-support';

/** The README's scripts in docs/scripts, run as a reader runs them, against the service and simulator. */

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');

let stack: Stack;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  stack = await startStack();
  const created = await stack.send<CreatedApiKey>('POST', '/v1/auth/api-keys', { name: 'examples' });
  expect(created.status).toBe(201);
  env = {
    ...process.env,
    PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
    SKIFF_URL: stack.url,
    SKIFF_API_KEY: created.body.key,
    SKIFF_CLUSTER: CLUSTER_ID,
  };
});
afterAll(() => stack?.close());

describe('docs/scripts/recent-warnings.sh', () => {
  it('lists the warnings of the last 15 minutes and nothing older or normal, with an API key', async () => {
    const pod = (name: string) => ({ kind: 'Pod', name, namespace: 'default' });
    stack.sim.store.addEvent({
      involvedObject: pod('old-warning'),
      reason: 'BackOff',
      message: 'too old',
      type: 'Warning',
      firstTimestamp: minutesAgo(40),
      lastTimestamp: minutesAgo(30),
    });
    stack.sim.store.addEvent({
      involvedObject: pod('recent-normal'),
      reason: 'Pulled',
      message: 'fine',
      type: 'Normal',
      firstTimestamp: minutesAgo(2),
      lastTimestamp: minutesAgo(1),
    });
    stack.sim.store.addEvent({
      involvedObject: pod('recent-warning'),
      reason: 'FailedMount',
      message: 'volume missing',
      type: 'Warning',
      firstTimestamp: minutesAgo(6),
      lastTimestamp: minutesAgo(5),
      count: 3,
    });
    const { stdout } = await run('bash', [resolve(ROOT, 'docs/scripts/recent-warnings.sh')], { env });
    const lines = stdout.trim().split('\n');
    expect(
      lines.some((l) => l.includes('default/Pod/recent-warning  FailedMount: volume missing (x3)')),
    ).toBe(true);
    expect(stdout).not.toContain('old-warning');
    expect(stdout).not.toContain('recent-normal');
    // The same set the API gives for the same question.
    const api = await stack.get<unknown[]>(
      `${stack.cluster}/kubernetes-events?type=WARNING&since=15m&limit=1000`,
    );
    expect(lines.at(-1)).toBe(`${api.body.length} warnings in the last 15 minutes`);
    expect(lines.length - 1).toBe(api.body.length);
  });

  it('says what went wrong when the key is refused', async () => {
    const failed = await run('bash', [resolve(ROOT, 'docs/scripts/recent-warnings.sh')], {
      env: { ...env, SKIFF_API_KEY: 'not-a-key' },
    }).catch((err: { code: number; stderr: string }) => err);
    expect('code' in failed && failed.code).not.toBe(0);
    expect((failed as { stderr: string }).stderr).toContain('invalid_token');
  });
});

describe('docs/scripts/page-pods.ts', () => {
  it('pages through every pod along Link, the same pods the API lists', async () => {
    const { stdout } = await run(process.execPath, [resolve(ROOT, 'docs/scripts/page-pods.ts')], {
      env: { ...env, PAGE_SIZE: '7' },
    });
    const all = await collectAll<ResourceWrapper>(stack, `${stack.cluster}/kubernetes-proxy/pod?limit=1000`);
    expect(all.length).toBeGreaterThan(7); // so the walk takes several pages
    const lines = stdout.trim().split('\n');
    expect(lines.at(-1)).toBe(`${all.length} pods (x-Total ${all.length})`);
    const names = lines.slice(0, -1).map((l) => l.split('  ')[0]);
    expect(names).toEqual(all.map((w) => `${w.resource.metadata.namespace}/${w.resource.metadata.name}`));
  });
});
