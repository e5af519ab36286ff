import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from './test-support/eventually.test-support';
import { startStack } from './test-support/harness.test-support';

const PACKAGE_VERSION = (
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
    version: string;
  }
).version;

describe('GET /v1/health', () => {
  it('answers without a credential with status ok and the version the package is released as', async () => {
    const stack = await startStack();
    try {
      const res = await fetch(`${stack.url}/v1/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        status: 'ok',
        version: PACKAGE_VERSION,
        replica: `${hostname()}-${process.pid}`,
        recording: [],
      });
    } finally {
      await stack.close();
    }
  });

  it('lists the clusters whose event history this replica records, once their events were read', async () => {
    const stack = await startStack();
    try {
      const health = async () =>
        (await (await fetch(`${stack.url}/v1/health`)).json()) as { recording: string[] };
      expect((await health()).recording).toEqual([]);
      const res = await stack.get(`${stack.cluster}/kubernetes-events`);
      expect(res.status).toBe(200);
      const clusterId = stack.cluster.split('/').at(-1);
      await eventually(async () => expect((await health()).recording).toEqual([clusterId]));
    } finally {
      await stack.close();
    }
  });
});
