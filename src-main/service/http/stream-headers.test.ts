import { createServer, get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamBody } from '../../../src-shared/contract/define';
import { sendStream } from './stream';

let server: Server | undefined;

afterEach(async () => {
  const s = server;
  server = undefined;
  if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
});

async function* chunks(...parts: string[]) {
  for (const part of parts) yield part;
}

/** Serves one streaming body over real HTTP and answers what a client receives. */
async function fetchStream(
  body: StreamBody<string>,
): Promise<{ headers: IncomingHttpHeaders; text: string }> {
  server = createServer((_req, res) => {
    void sendStream(res, 200, body, false, { 'Cache-Control': 'no-store' });
  });
  const s = server;
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  try {
    return await new Promise((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/stream', agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ headers: res.headers, text }));
        res.on('error', reject);
      }).on('error', reject);
    });
  } finally {
    server = undefined;
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

describe('sendStream headers', () => {
  it('a stream tells reverse proxies not to buffer it', async () => {
    const { headers, text } = await fetchStream({ contentType: 'text/plain', chunks: chunks('a\n', 'b\n') });
    expect(headers['x-accel-buffering']).toBe('no');
    expect(headers['content-type']).toBe('text/plain');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['content-disposition']).toBeUndefined();
    expect(text).toBe('a\nb\n');
  });

  it('a stream with a file name is offered as a download under that name, non-ASCII included', async () => {
    const plain = await fetchStream({
      contentType: 'application/vnd.skiff.snapshot+sqlite',
      chunks: chunks('x'),
      fileName: 'prod 2026-11-24.skiff',
    });
    expect(plain.headers['content-disposition']).toBe('attachment; filename="prod 2026-11-24.skiff"');

    const accented = await fetchStream({
      contentType: 'application/vnd.skiff.snapshot+sqlite',
      chunks: chunks('x'),
      fileName: 'prüf "b".skiff',
    });
    expect(accented.headers['content-disposition']).toBe(
      `attachment; filename="pr_f _b_.skiff"; filename*=UTF-8''pr%C3%BCf%20%22b%22.skiff`,
    );
    expect(decodeURIComponent(accented.headers['content-disposition']!.split("UTF-8''")[1]!)).toBe(
      'prüf "b".skiff',
    );
  });
});
