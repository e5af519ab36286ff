/**
 * A loopback proxy in front of the simulator that counts the requests passing through (by path,
 * lists apart from watches, and those still open) and can refuse paths with 403, as RBAC would:
 * how a test sees how often discovery reads and whether its watches run, without touching them.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

interface Seen {
  path: string;
  watch: boolean;
  open: boolean;
}

export interface CountingProxy {
  url: string;
  /** Requests so far to exactly `path`; watches only with `watch: true`. */
  count(path: string, watch?: boolean): number;
  /** Requests whose path starts with `prefix` still open (a running watch). */
  open(prefix: string): number;
  /** Path prefixes answered 403 Forbidden. */
  deny: Set<string>;
  close(): Promise<void>;
}

export async function countingProxy(target: string): Promise<CountingProxy> {
  const seen: Seen[] = [];
  const deny = new Set<string>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const watching = url.searchParams.get('watch');
    const entry: Seen = { path: url.pathname, watch: watching === 'true' || watching === '1', open: true };
    seen.push(entry);
    res.on('close', () => {
      entry.open = false;
    });
    if ([...deny].some((p) => url.pathname.startsWith(p))) {
      res.writeHead(403, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          reason: 'Forbidden',
          code: 403,
          message: 'forbidden',
        }),
      );
      return;
    }
    const upstream = request(
      target + (req.url ?? '/'),
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: (path, watch = false) => seen.filter((s) => s.path === path && s.watch === watch).length,
    open: (prefix) => seen.filter((s) => s.path.startsWith(prefix) && s.open).length,
    deny,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
