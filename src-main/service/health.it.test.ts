import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
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
      expect(await res.json()).toEqual({ status: 'ok', version: PACKAGE_VERSION });
    } finally {
      await stack.close();
    }
  });
});
