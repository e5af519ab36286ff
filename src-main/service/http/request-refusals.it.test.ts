/**
 * Requests the service cannot take whole, sent to the whole service over raw sockets (issue 22
 * §6): an upload that runs out of time, a URL too long, headers too large. Each is answered in
 * problem+json, never with an empty body or a reset connection, and an upload cut off leaves no
 * file behind.
 */
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../../src-shared/contract/problem';
import { SNAPSHOT_MEDIA_TYPE } from '../../../src-shared/contract/snapshot-operations';
import { type AuthStack, startAuthStack, type Tokens } from '../auth/stack.test-support';
import { eventually } from '../test-support/eventually.test-support';

let stack: AuthStack;
let admin: Tokens;

beforeAll(async () => {
  stack = await startAuthStack({
    config: { http: { headersTimeoutMs: 1_000, requestTimeoutMs: 1_500, checkIntervalMs: 100 } },
  });
  admin = await stack.login();
});
afterAll(() => stack?.close());

/** Sends `text` on a new connection and collects the answer until the server closes it. */
async function exchange(text: string): Promise<{ status: number; problem: Problem; reset: boolean }> {
  const socket = connect(stack.port, '127.0.0.1');
  let received = '';
  let reset = false;
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => {
    received += d;
  });
  socket.on('error', () => {
    reset = true;
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(text);
  await closed;
  const [head, body] = received.split('\r\n\r\n') as [string, string];
  expect(head).toMatch(/\r\ncontent-type: application\/problem\+json; charset=utf-8/i);
  return { status: Number(head.split(' ')[1]), problem: JSON.parse(body) as Problem, reset };
}

const host = () => `Host: 127.0.0.1:${stack.port}\r\n`;

describe('an upload that does not arrive within the request timeout', () => {
  it('is answered 408 request_timeout in problem+json, and leaves no file', async () => {
    const head =
      `POST /v1/snapshots HTTP/1.1\r\n${host()}Authorization: ${admin.bearer.authorization}\r\n` +
      `Content-Type: ${SNAPSHOT_MEDIA_TYPE}\r\nContent-Length: 1000000\r\n\r\n`;
    const answer = await exchange(`${head}${'x'.repeat(10_000)}`);
    expect(answer.status).toBe(408);
    expect(answer.problem).toMatchObject({
      code: 'request_timeout',
      status: 408,
      title: 'Request Timeout',
      detail: 'the request did not arrive whole within 1.5 s (the request timeout)',
    });
    const uploads = join(stack.dataDir, 'opened-snapshots');
    await eventually(async () => expect(existsSync(uploads) ? readdirSync(uploads) : []).toEqual([]));
  });
});

describe('a request too long', () => {
  it('with a URL past 8 KiB is 414 uri_too_long', async () => {
    for (const length of [9_000, 20_000, 300_000]) {
      const answer = await exchange(`GET /v1/health?pad=${'a'.repeat(length)} HTTP/1.1\r\n${host()}\r\n`);
      expect([answer.status, answer.problem.code, answer.reset], `${length}`).toEqual([
        414,
        'uri_too_long',
        false,
      ]);
    }
  });

  it('with headers past 16 KiB is 431 headers_too_large', async () => {
    for (const length of [20_000, 300_000]) {
      const answer = await exchange(
        `GET /v1/health HTTP/1.1\r\n${host()}X-Pad: ${'b'.repeat(length)}\r\n\r\n`,
      );
      expect([answer.status, answer.problem.code, answer.reset], `${length}`).toEqual([
        431,
        'headers_too_large',
        false,
      ]);
    }
  });

  it('leaves the service answering', async () => {
    expect((await stack.call('GET', '/v1/health')).status).toBe(200);
  });
});
