/**
 * A live cluster's collection as a source (source-live.ts), against a stand-in apiserver on
 * loopback: what a list page carries over from the apiserver's answer and nothing more, what a
 * watch asks for, and a refused watch as the apiserver's own Status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { KubeRequestError } from '../kube/kube-client';
import { type LocalApiserver, localApiserver } from '../test-support/local-apiserver.test-support';
import { liveCollection } from './source-live';

let local: LocalApiserver | undefined;
afterEach(async () => {
  await local?.close();
  local = undefined;
});

const seen: URL[] = [];
async function serve(answer: (res: ServerResponse, url: URL, req: IncomingMessage) => void) {
  seen.length = 0;
  local = await localApiserver((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(url);
    answer(res, url, req);
  });
  return liveCollection(local.client, '/api/v1/pods');
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const signal = () => new AbortController().signal;

describe('a list page', () => {
  it('asks for limit and continue, and carries over the items, resourceVersion, continue and remainingItemCount', async () => {
    const lw = await serve((res) =>
      json(res, 200, {
        kind: 'PodList',
        metadata: { resourceVersion: '42', continue: 'next', remainingItemCount: 7 },
        items: [{ metadata: { name: 'a' } }],
      }),
    );
    expect(lw.path).toBe('/api/v1/pods');
    const page = await lw.list({ limit: 3, continue: 'tok', timeoutMs: 5_000, signal: signal() });
    expect(page).toStrictEqual({
      items: [{ metadata: { name: 'a' } }],
      resourceVersion: '42',
      continue: 'next',
      remainingItemCount: 7,
    });
    expect(seen[0]?.pathname).toBe('/api/v1/pods');
    expect(Object.fromEntries(seen[0]!.searchParams)).toEqual({ limit: '3', continue: 'tok' });
  });

  it('leaves out what the answer does not say: no metadata, no items, an empty continue', async () => {
    const lw = await serve((res, url) =>
      json(
        res,
        200,
        url.searchParams.has('continue') ? { kind: 'PodList' } : { metadata: { continue: '' }, items: [] },
      ),
    );
    expect(await lw.list({ limit: 1, timeoutMs: 5_000, signal: signal() })).toStrictEqual({ items: [] });
    expect(Object.fromEntries(seen[0]!.searchParams)).toEqual({ limit: '1' });
    expect(await lw.list({ limit: 1, continue: 'x', timeoutMs: 5_000, signal: signal() })).toStrictEqual({
      items: [],
    });
  });
});

describe('a watch', () => {
  it('asks to watch from the resourceVersion with bookmarks and its timeout, and yields the events', async () => {
    const lw = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        `${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: '5' } } })}\n`,
      );
    });
    let heard = 0;
    const events = await lw.watch({
      resourceVersion: '4',
      timeoutSeconds: 300,
      timeoutMs: 5_000,
      signal: signal(),
      onActivity: () => heard++,
    });
    const got = [];
    for await (const e of events) got.push(e);
    expect(got).toEqual([{ type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: '5' } } }]);
    expect(heard).toBe(1);
    expect(Object.fromEntries(seen[0]!.searchParams)).toEqual({
      watch: '1',
      resourceVersion: '4',
      allowWatchBookmarks: 'true',
      timeoutSeconds: '300',
    });
  });

  it('refused, is a KubeRequestError with the apiserver’s Status, or the HTTP code when there is none', async () => {
    const lw = await serve((res, url) => {
      if (url.searchParams.get('resourceVersion') === 'old')
        return json(res, 410, {
          kind: 'Status',
          code: 410,
          reason: 'Expired',
          message: 'too old resource version: 1',
        });
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end('not json');
    });
    const watch = (resourceVersion: string) =>
      lw.watch({
        resourceVersion,
        timeoutSeconds: 1,
        timeoutMs: 5_000,
        signal: signal(),
        onActivity: () => {},
      });
    const expired = await watch('old').catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(KubeRequestError);
    expect(expired).toMatchObject({
      statusCode: 410,
      status: { reason: 'Expired' },
      message: 'too old resource version: 1',
    });
    const forbidden = await watch('1').catch((e: unknown) => e);
    expect(forbidden).toMatchObject({ statusCode: 403, status: undefined, message: 'HTTP 403' });
  });
});
