/**
 * JSON request bodies at the HTTP edge (body.ts through request-handler.ts): which bodies are read, how
 * their type is judged, the 1 MiB bound, and what a body that is not JSON answers.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from './body';
import { type Edge, problemOf, rawRequest, startEdge } from './edge.test-support';

let edge: Edge;
beforeEach(async () => {
  edge = await startEdge();
});
afterEach(async () => edge.close());

/** createWorkspace: a POST whose body is JSON but not required to say so when empty. */
const post = (body: string | undefined, headers: Record<string, string> = {}) =>
  fetch(`${edge.url}/v1/workspaces`, { method: 'POST', headers, ...(body === undefined ? {} : { body }) });

/** A JSON text of exactly `bytes` bytes: one string. */
const jsonOfSize = (bytes: number) => `"${'j'.repeat(bytes - 2)}"`;

/** A chunked request of `body`, in chunks of 64 KiB. */
function chunked(path: string, body: string): string {
  let out = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
  for (let at = 0; at < body.length; at += 65_536) {
    const part = body.slice(at, at + 65_536);
    out += `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`;
  }
  return `${out}0\r\n\r\n`;
}

describe('JSON bodies', () => {
  it('hands the operation the parsed body', async () => {
    const res = await post('{"workspaceId":"w-1","name":"One"}', { 'content-type': 'application/json' });
    expect(res.status).toBe(201);
    expect(edge.calls.map((c) => [c.name, c.raw.body])).toEqual([
      ['createWorkspace', { workspaceId: 'w-1', name: 'One' }],
    ]);
  });

  it('takes any casing, parameters and +json suffix as JSON', async () => {
    for (const type of ['Application/JSON; charset=utf-8', ' application/merge-patch+json ']) {
      const res = await post('{"n":1}', { 'content-type': type });
      expect(res.status, type).toBe(201);
    }
    expect(edge.calls.map((c) => c.raw.body)).toEqual([{ n: 1 }, { n: 1 }]);
  });

  it('refuses a body that is not sent as JSON with 415, before the operation runs', async () => {
    for (const type of ['text/plain', 'application/jsonx', 'text/json+xml']) {
      const res = await post('{"n":1}', { 'content-type': type });
      expect(await problemOf(res), type).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    }
    const untyped = await rawRequest(
      edge.url,
      'POST /v1/workspaces HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{"n":1}',
    );
    expect(untyped.status).toBe(415);
    expect(edge.calls).toEqual([]);
  });

  it('treats an empty or blank body as no body, whatever its type says', async () => {
    expect((await post('', { 'content-type': 'text/plain' })).status).toBe(201);
    expect((await post(' \n\t ', { 'content-type': 'application/json' })).status).toBe(201);
    expect(edge.calls.map((c) => c.raw.body)).toEqual([undefined, undefined]);
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await post('{"n":', { 'content-type': 'application/json' });
    expect(await problemOf(res)).toMatchObject({ status: 400, code: 'invalid_json' });
    expect(edge.calls).toEqual([]);
  });

  it('never reads the body of a GET or a DELETE', async () => {
    const res = await fetch(`${edge.url}/v1/workspaces/w-1`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(res.status).toBe(200);
    expect(edge.calls.map((c) => [c.name, c.raw.body])).toEqual([['deleteWorkspace', undefined]]);
  });
});

describe('the 1 MiB bound on JSON bodies', () => {
  it('refuses a body declared larger with 413 problem+json at once, without waiting for it', async () => {
    // Only the first bytes are ever sent: the answer must not wait for the rest.
    const answer = await rawRequest(
      edge.url,
      `POST /v1/workspaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${MAX_BODY_BYTES + 1}\r\n\r\n`,
      '{"name":"',
    );
    answer.socket.destroy();
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(edge.calls).toEqual([]);
  });

  it('accepts a body of exactly 1 MiB, declared or chunked', async () => {
    const body = jsonOfSize(MAX_BODY_BYTES);
    expect((await post(body, { 'content-type': 'application/json' })).status).toBe(201);
    const answer = await rawRequest(edge.url, chunked('/v1/workspaces', body));
    answer.socket.destroy();
    expect(answer.status).toBe(201);
    expect(edge.calls.map((c) => (c.raw.body as string).length)).toEqual([
      MAX_BODY_BYTES - 2,
      MAX_BODY_BYTES - 2,
    ]);
  });

  it('refuses a chunked body that grows past 1 MiB with 413', async () => {
    const answer = await rawRequest(edge.url, chunked('/v1/workspaces', jsonOfSize(MAX_BODY_BYTES + 1)));
    answer.socket.destroy();
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'payload_too_large' });
    expect(edge.calls).toEqual([]);
  });
});

describe('operations that require JSON', () => {
  it('refuse a request not sent as JSON with 415 even when it has no body', async () => {
    const res = await fetch(`${edge.url}/v1/auth/login`, { method: 'POST' });
    expect(await problemOf(res)).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    const typed = await fetch(`${edge.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(typed.status).toBe(200);
    expect(edge.calls.map((c) => [c.name, c.raw.body])).toEqual([['login', undefined]]);
  });
});
