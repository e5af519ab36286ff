import type { IncomingMessage, Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import type { AuthRequirement, Reply } from '../../../src-shared/contract/define';
import type { OperationName } from '../../../src-shared/contract/operations';
import type { CallContext, Principal } from '../context';
import type { RawCall } from '../invoke';
import { createHttpServer, type HttpServerOptions } from './listener';
import { type LogEntry, recordingLogger } from './recording-logger.test-support';
import { createHttpApp, type HttpAppOptions } from './request-handler';

/** One call the HTTP edge handed to the invoker, as it handed it. */
export interface EdgeCall {
  name: OperationName;
  raw: RawCall;
  ctx: CallContext;
}

export interface Edge {
  url: string;
  server: Server;
  calls: EdgeCall[];
  /** The auth requirement of each authenticate() call, in order. */
  asked: AuthRequirement[];
  entries: LogEntry[];
  close(): Promise<void>;
}

export const ADMIN: Principal = { accountId: 'acc-admin', admin: true, workspaces: 'all' };

type Invoke = (call: EdgeCall) => Promise<Reply<unknown>>;

export interface EdgeOptions extends Partial<Omit<HttpAppOptions, 'invoke' | 'logger' | 'authenticate'>> {
  /** What the operation answers; by default its input, echoed as JSON. */
  answer?: Invoke;
  authenticate?: (req: IncomingMessage, requirement: AuthRequirement) => Promise<Principal>;
  http?: HttpServerOptions;
}

/**
 * The service's HTTP edge (createHttpApp on createHttpServer) on a loopback port, in front of a
 * scripted invoker instead of the operations: what the edge hands on and what it answers are what
 * these tests look at.
 */
export async function startEdge(opts: EdgeOptions = {}): Promise<Edge> {
  const { logger, entries } = recordingLogger();
  const calls: EdgeCall[] = [];
  const asked: AuthRequirement[] = [];
  const answer: Invoke =
    opts.answer ??
    (async ({ name, raw }) => ({
      data: { name, params: raw.params, query: raw.query, body: raw.body ?? null },
    }));
  const { answer: _a, authenticate, http, ...rest } = opts;
  const listener = createHttpApp({
    ...rest,
    logger,
    authenticate: async (req, requirement) => {
      asked.push(requirement);
      return authenticate ? authenticate(req, requirement) : ADMIN;
    },
    invoke: async (name, raw, ctx) => {
      const call = { name, raw, ctx };
      calls.push(call);
      return answer(call);
    },
  });
  const server = createHttpServer(listener, http ?? {}, logger);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    calls,
    asked,
    entries,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A problem+json answer read whole: status, headers and the parsed problem. */
export async function problemOf(
  res: Response,
): Promise<{ status: number; code: string; body: Record<string, unknown> }> {
  expectProblemType(res.headers.get('content-type'));
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, code: String(body.code), body };
}

function expectProblemType(type: string | null): void {
  if (!type?.startsWith('application/problem+json'))
    throw new Error(`expected a problem+json answer, got Content-Type ${type}`);
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Resolves when the server closes the connection. */
  closed: Promise<void>;
  socket: Socket;
  /** Bytes received after the answer, so far. */
  after(): string;
}

/**
 * Writes `head` (and then `parts` of a body, each as given) on a new connection and resolves with
 * the first answer as soon as it is whole, whether or not the body was sent in full: a test of an
 * answer given before the body ends needs the bytes on the wire as they are, which fetch hides.
 */
export function rawRequest(url: string, head: string, ...parts: Array<string | Buffer>): Promise<RawAnswer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    let got = Buffer.alloc(0);
    let answered = -1;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no whole answer within 10 s; got ${JSON.stringify(got.toString('latin1'))}`));
    }, 10_000);
    socket.on('error', () => {});
    socket.on('data', (d: Buffer) => {
      got = Buffer.concat([got, d]);
      if (answered >= 0) return;
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine = '', ...lines] = got.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      // A HEAD's answer names the length of a body it does not send.
      const length = head.startsWith('HEAD ') ? 0 : Number(headers['content-length'] ?? 0);
      if (got.length < end + 4 + length) return;
      clearTimeout(timer);
      answered = end + 4 + length;
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: got.subarray(end + 4, end + 4 + length).toString('utf8'),
        closed,
        socket,
        after: () => got.subarray(answered).toString('latin1'),
      });
    });
    socket.once('close', () => {
      clearTimeout(timer);
      if (answered < 0)
        reject(new Error(`closed before a whole answer; got ${JSON.stringify(got.toString('latin1'))}`));
    });
    socket.once('connect', () => {
      socket.write(head);
      for (const part of parts) socket.write(part);
    });
  });
}
