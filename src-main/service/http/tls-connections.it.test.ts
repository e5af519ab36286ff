/**
 * The connection bounds over real TLS (listener.ts, connection-guard.ts): the ConnectionGuard
 * tracks a TLS connection by the socket its requests arrive on, so a kept-alive connection that
 * keeps sending requests is never closed as silent. Apart from https.it.test.ts so that the
 * mutation run of tls-files.ts attributes its watchers to the tests that exercise them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPki, type SimPki } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService } from '../index';
import { recordingLogger } from './recording-logger.test-support';

let dir: string;
let first: SimPki;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-tls-bounds-'));
  first = await createPki();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the connection bounds over TLS', () => {
  it('count a kept-alive TLS connection busy while it sends requests, not silent', async () => {
    await writeFile(join(dir, 'b.crt'), first.serverCertPem);
    await writeFile(join(dir, 'b.key'), first.serverKeyPem);
    // A connection that has not sent a request within 300 ms is closed (the ConnectionGuard).
    const service = createService({
      contexts: [],
      logger: recordingLogger().logger,
      tls: { certFile: join(dir, 'b.crt'), keyFile: join(dir, 'b.key') },
      http: { headersTimeoutMs: 300, checkIntervalMs: 50 },
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: [first.caPem] });
    try {
      const { url } = await service.listen(0, '127.0.0.1');
      const ports = new Set<number>();
      // Well past the 300 ms without a pause of that length: the same connection all along.
      for (let i = 0; i < 12; i++) {
        const status = await new Promise<number>((resolve, reject) => {
          const req = request(`${url}/v1/health`, { agent }, (res) => {
            ports.add(res.socket.localPort ?? 0);
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.end();
        });
        expect(status).toBe(200);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(ports.size).toBe(1);
    } finally {
      agent.destroy();
      await service.close();
    }
  });
});
