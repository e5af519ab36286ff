/**
 * The cluster client's own rules against a stand-in apiserver on loopback: how the request is
 * addressed and authenticated, what each kind of answer becomes (JSON, a body that is not JSON,
 * a refusal with or without a Status), which deadline covers what, the one retry of a socket
 * closed under a request, and a closed client.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { kubeconfigYaml } from '@skiff/kube-simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { failureOf, problemOf } from '../test-support/rejections.test-support';
import { KubeClient, KubeRequestError, toProblem } from './kube-client';
import { contextsFromYaml } from './kubeconfig';

let server: Server | undefined;
let client: KubeClient | undefined;
afterEach(async () => {
  await client?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  client = undefined;
});

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A client of a stand-in apiserver that answers with `handler`; `serverSuffix` follows its URL. */
async function clientOf(handler: Handler, serverSuffix = ''): Promise<KubeClient> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${serverSuffix}`;
  const source = contextsFromYaml(kubeconfigYaml({ server: url, user: { token: 'secret-token' } }))[0]!;
  client = new KubeClient(source.config, url);
  return client;
}

const answer =
  (status: number, body: string, type = 'application/json'): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };

async function refusalOf(p: Promise<unknown>): Promise<KubeRequestError> {
  const err = await failureOf(p);
  if (!(err instanceof KubeRequestError)) throw new Error(`expected a KubeRequestError, got ${String(err)}`);
  return err;
}

const SHORT = { timeoutMs: 2_000 };

describe('the request', () => {
  it('carries the credential and asks for JSON, with only the query values given', async () => {
    let seen: IncomingMessage | undefined;
    const c = await clientOf((req, res) => {
      seen = req;
      answer(200, '{}')(req, res);
    });
    await c.getJson('/api/v1/pods', { ...SHORT, query: { limit: '5', continue: undefined, watch: '0' } });
    expect(seen?.url).toBe('/api/v1/pods?limit=5&watch=0');
    expect(seen?.headers.authorization).toBe('Bearer secret-token');
    expect(seen?.headers.accept).toBe('application/json');
  });

  it('keeps the path of a server behind a prefix and drops its trailing slashes', async () => {
    let url = '';
    const c = await clientOf((req, res) => {
      url = req.url ?? '';
      answer(200, '{}')(req, res);
    }, '/k8s/clusters/c-1//');
    await c.getJson('/version', SHORT);
    expect(url).toBe('/k8s/clusters/c-1/version');
  });
});

describe('answers', () => {
  it('a 2xx is its JSON, parsed', async () => {
    const c = await clientOf(answer(200, '{"gitVersion":"v1.31.0","items":[1,2]}'));
    expect(await c.getJson('/version', SHORT)).toEqual({ gitVersion: 'v1.31.0', items: [1, 2] });
  });

  it('a 2xx that is not JSON is cluster_error quoting the start of the body, trimmed', async () => {
    const page = `  <html>${'x'.repeat(300)}</html>\n`;
    const c = await clientOf(answer(200, page, 'text/html'));
    const p = await problemOf(c.getJson('/api/v1/pods', SHORT));
    expect(p.code).toBe('cluster_error');
    expect(p.message).toBe(
      `the cluster answered /api/v1/pods with a body that is not JSON: ${page.trim().slice(0, 200)}`,
    );
  });

  it.each([300, 302])(
    'a %i (a proxy in front sending us to its login page) is a refusal, not data',
    async (code) => {
      const c = await clientOf((_req, res) => {
        res.writeHead(code, { location: '/login', 'content-type': 'application/json' });
        res.end('{"items":[]}');
      });
      const err = await refusalOf(c.getJson('/api/v1/pods', SHORT));
      expect(err.statusCode).toBe(code);
    },
  );

  it('a refusal keeps its code and Status, and is named by the Status message', async () => {
    const status = { kind: 'Status', code: 403, reason: 'Forbidden', message: 'pods is forbidden' };
    const c = await clientOf(answer(403, JSON.stringify(status)));
    const err = await refusalOf(c.getJson('/api/v1/pods', SHORT));
    expect(err.statusCode).toBe(403);
    expect(err.status).toEqual(status);
    expect(err.message).toBe('pods is forbidden');
    // What a log line prints of it names the kind of failure.
    expect(String(err)).toBe('KubeRequestError: pods is forbidden');
  });

  it('a refusal without a Status is named by its body, trimmed to 500 characters, or by its code', async () => {
    const body = `  ${'e'.repeat(600)}  `;
    const text = await refusalOf((await clientOf(answer(502, body, 'text/plain'))).getJson('/x', SHORT));
    expect(text.status).toBeUndefined();
    expect(text.message).toBe('e'.repeat(500));
    await client?.close();
    server?.close();

    const empty = await refusalOf((await clientOf(answer(503, '  ', 'text/plain'))).getJson('/x', SHORT));
    expect(empty.message).toBe('HTTP 503');
  });

  it.each(['null', '"busy"', '42'])('JSON that is not an object (%s) is no Status', async (body) => {
    const c = await clientOf(answer(500, body));
    const err = await refusalOf(c.getJson('/x', SHORT));
    expect(err.status).toBeUndefined();
    expect(err.message).toBe(body);
  });
});

describe('toProblem', () => {
  const refusal = (code: number) => new KubeRequestError(code, undefined, 'said the cluster');

  it('a 404 is resource_not_found naming what was asked for', () => {
    const p = toProblem(refusal(404), 'pod "web"') as ProblemError;
    expect([p.code, p.message]).toEqual(['resource_not_found', 'pod "web" not found']);
  });

  it.each([401, 403])('a %i is cluster_unauthorized with the cluster’s words and code', (code) => {
    const p = toProblem(refusal(code), 'x') as ProblemError;
    expect(p.code).toBe('cluster_unauthorized');
    expect(p.message).toBe('the cluster refused our credentials: said the cluster');
    expect(p.extensions).toEqual({ clusterStatus: code });
  });

  it('any other refusal is cluster_error with the cluster’s code', () => {
    const p = toProblem(refusal(500), 'x') as ProblemError;
    expect(p.code).toBe('cluster_error');
    expect(p.message).toBe('the cluster answered 500: said the cluster');
    expect(p.extensions).toEqual({ clusterStatus: 500 });
  });

  it('an error that is not a refusal passes through', () => {
    const err = new Error('boom');
    expect(toProblem(err, 'x')).toBe(err);
  });
});

describe('deadlines', () => {
  /** Sends headers at once and the body after `ms`. */
  const slowBody =
    (ms: number): Handler =>
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":');
      setTimeout(() => res.end('1}'), ms);
    };

  it('a short request’s deadline covers its body', async () => {
    const c = await clientOf(slowBody(1_500));
    const p = await problemOf(c.getJson('/x', { timeoutMs: 300 }));
    expect(p.code).toBe('cluster_timeout');
    expect(p.message).toBe('the cluster did not answer within 0.3 s');
  });

  it('a stream’s deadline covers only the wait for headers', async () => {
    const c = await clientOf(slowBody(600));
    const { response, timedOut } = await c.open('/x', { timeoutMs: 300, stream: true });
    expect(await response.text()).toBe('{"a":1}');
    expect(timedOut()).toBe(false);
  });

  it('a stream whose headers never come ends at its deadline', async () => {
    const c = await clientOf(() => {});
    const p = await problemOf(c.open('/x', { timeoutMs: 300, stream: true }));
    expect(p.code).toBe('cluster_timeout');
  });

  it('the caller’s own abort ends a request as an abort, not a timeout', async () => {
    const c = await clientOf(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DOMException('client left', 'AbortError')), 50);
    const err = await failureOf(c.getJson('/x', { timeoutMs: 5_000, signal: controller.signal }));
    expect(err).not.toBeInstanceOf(ProblemError);
    expect((err as Error).name).toBe('AbortError');
  });
});

describe('connections', () => {
  it('a connection closed under a request is retried once on a fresh one', async () => {
    let requests = 0;
    const c = await clientOf((req, res) => {
      requests++;
      if (requests === 1) req.socket.destroy();
      else answer(200, '{"ok":true}')(req, res);
    });
    expect(await c.getJson('/x', SHORT)).toEqual({ ok: true });
    expect(requests).toBe(2);
  });

  it('a second close in a row is the cluster’s failure, named', async () => {
    let requests = 0;
    const c = await clientOf((req) => {
      requests++;
      req.socket.destroy();
    });
    const p = await problemOf(c.getJson('/x', SHORT));
    expect(p.code).toBe('cluster_unreachable');
    expect(p.message).toMatch(/^the cluster at http:\/\/127\.0\.0\.1:\d+ could not be reached: /);
    expect(requests).toBe(2);
  });

  it('a closed client asks nothing and says so', async () => {
    let requests = 0;
    const c = await clientOf((req, res) => {
      requests++;
      answer(200, '{}')(req, res);
    });
    await c.close();
    const p = await problemOf(c.getJson('/x', SHORT));
    expect([p.code, p.message]).toEqual(['cluster_unreachable', 'the cluster connection was closed']);
    expect(requests).toBe(0);
  });

  it('closing ends a stream still open', async () => {
    const c = await clientOf((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"type":"ADDED"}\n');
    });
    const { response } = await c.open('/watch', { timeoutMs: 2_000, stream: true });
    const reading = response.text().then(
      () => 'ended',
      () => 'failed',
    );
    await c.close();
    expect(['ended', 'failed']).toContain(await reading);
  });
});
