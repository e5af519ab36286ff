/**
 * JSON request bodies at the HTTP edge (body.ts through request-handler.ts): media types written with
 * optional whitespace, requests with no body at all, and the facts a refusal names.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from './body';
import { type Edge, problemOf, rawRequest, startEdge } from './edge.test-support';

let edge: Edge;
beforeEach(async () => {
  edge = await startEdge();
});
afterEach(async () => edge.close());

const post = (path: string, body: string | undefined, headers: Record<string, string> = {}) =>
  fetch(`${edge.url}${path}`, { method: 'POST', headers, ...(body === undefined ? {} : { body }) });

describe('JSON request bodies', () => {
  it('takes a JSON type with whitespace before its parameters as JSON', async () => {
    for (const type of ['application/json ; charset=utf-8', 'application/merge-patch+json\t;x=1']) {
      const res = await post('/v1/workspaces', '{"n":2}', { 'content-type': type });
      expect(res.status, type).toBe(201);
      expect((await post('/v1/auth/login', undefined, { 'content-type': type })).status, type).toBe(200);
    }
    expect(edge.calls.map((c) => [c.name, c.raw.body])).toEqual([
      ['createWorkspace', { n: 2 }],
      ['login', undefined],
      ['createWorkspace', { n: 2 }],
      ['login', undefined],
    ]);
  });

  it('treats a request that declares neither a length nor chunks as having no body, whatever its type', async () => {
    const answer = await rawRequest(
      edge.url,
      'POST /v1/workspaces HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(answer.status).toBe(201);
    expect(edge.calls.map((c) => [c.name, c.raw.body])).toEqual([['createWorkspace', undefined]]);
  });

  it('tells a client refused for its media type to send application/json', async () => {
    const withBody = await problemOf(
      await post('/v1/workspaces', '{"n":1}', { 'content-type': 'text/plain' }),
    );
    const required = await problemOf(await post('/v1/auth/login', undefined));
    for (const refused of [withBody, required]) {
      expect(refused).toMatchObject({ status: 415, code: 'unsupported_media_type' });
      expect(refused.body.detail).toContain('application/json');
    }
  });

  it('names the bound in bytes when it refuses a body too large, declared or chunked', async () => {
    const declared = await rawRequest(
      edge.url,
      `POST /v1/workspaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${MAX_BODY_BYTES + 1}\r\n\r\n`,
    );
    declared.socket.destroy();
    const part = `"${'k'.repeat(MAX_BODY_BYTES)}"`;
    const chunked = await rawRequest(
      edge.url,
      'POST /v1/workspaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
      `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n0\r\n\r\n`,
    );
    chunked.socket.destroy();
    for (const answer of [declared, chunked]) {
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).detail).toContain(String(MAX_BODY_BYTES));
    }
  });

  it("says what is wrong with malformed JSON in the parser's words", async () => {
    const text = '{"n": [1, 2}';
    const parserSays = (() => {
      try {
        JSON.parse(text);
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    })();
    const refused = await problemOf(
      await post('/v1/workspaces', text, { 'content-type': 'application/json' }),
    );
    expect(refused).toMatchObject({ status: 400, code: 'invalid_json' });
    expect(parserSays).not.toBe('');
    expect(refused.body.detail).toContain(parserSays);
  });
});
