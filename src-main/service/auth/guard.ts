import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { TLSSocket } from 'node:tls';
import type { Principal } from '../context';
import { ProblemError } from '../errors';
import type { RequestGuard } from '../http/request-handler';

/** Host names that always reach this machine; accepted with the port the request arrived on. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

function splitHost(host: string): { name: string; port: string | null } {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    const port = h.slice(end + 1);
    return { name: h.slice(0, end + 1), port: port.startsWith(':') ? port.slice(1) : null };
  }
  const colon = h.lastIndexOf(':');
  return colon < 0 ? { name: h, port: null } : { name: h.slice(0, colon), port: h.slice(colon + 1) };
}

/** A bare IPv6 literal (as `--host ::1` gives it) is written bracketed in a Host header. */
const bracket = (name: string) => (isIP(name) === 6 ? `[${name}]` : name);

/**
 * The scheme the client used: https over TLS, or when a trusted proxy says so in
 * X-Forwarded-Proto (its first value, the one the client's own request arrived with); else http.
 */
function schemeOf(req: IncomingMessage, trustedProxy: (address: string | undefined) => boolean) {
  if ((req.socket as Partial<TLSSocket>).encrypted) return 'https';
  const forwarded = req.headers['x-forwarded-proto'];
  if (typeof forwarded !== 'string' || !trustedProxy(req.socket.remoteAddress)) return 'http';
  return forwarded.split(',')[0]!.trim().toLowerCase() === 'https' ? 'https' : 'http';
}

/**
 * Refuses requests a browser was tricked into sending. A DNS-rebinding page reaches 127.0.0.1
 * under its own name, so only allowlisted Host values pass; a cross-site page sends its Origin,
 * so a foreign Origin is refused. Same-origin requests of the served UI carry the request's own
 * origin (scheme, Host and port, all three compared) and pass; `https://host:port` is another
 * origin than `http://host:port`. No CORS header is ever sent, so browsers keep every other
 * origin from reading answers.
 */
export function createRequestGuard(opts: {
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  /** Proxies whose X-Forwarded-Proto is believed (--trust-proxy); none by default. */
  trustedProxy?: (address: string | undefined) => boolean;
}) {
  const trustedProxy = opts.trustedProxy ?? (() => false);
  /** name → accepted ports; null means any port (names configured without one). */
  const configured = new Map<string, Set<string> | null>();
  const origins = new Set((opts.allowedOrigins ?? []).map((o) => o.toLowerCase().replace(/\/$/, '')));

  function allowHost(entry: string) {
    const { name, port } = splitHost(bracket(entry));
    const ports = configured.get(name);
    if (port === null) configured.set(name, null);
    else if (ports !== null) configured.set(name, new Set([...(ports ?? []), port]));
  }
  for (const h of opts.allowedHosts ?? []) allowHost(h);

  /** Binding to a wildcard address serves every interface, so their addresses become valid hosts. */
  function allowListenAddress(host: string) {
    if (host === '0.0.0.0' || host === '::') {
      for (const list of Object.values(networkInterfaces())) {
        for (const nic of list ?? []) if (!nic.internal) allowHost(nic.address);
      }
    } else if (!LOOPBACK_NAMES.includes(bracket(host))) {
      allowHost(host);
    }
  }

  function hostAllowed(host: string, localPort: number | undefined): boolean {
    const { name, port } = splitHost(host);
    if (LOOPBACK_NAMES.includes(name))
      return port === String(localPort) || (port === null && localPort === 80);
    if (!configured.has(name)) return false;
    const ports = configured.get(name);
    return ports === null || (port !== null && ports!.has(port)) || (port === null && ports!.has('80'));
  }

  const guard: RequestGuard = (req: IncomingMessage) => {
    const host = req.headers.host;
    if (!host || !hostAllowed(host, req.socket.localPort)) {
      throw new ProblemError(
        'host_not_allowed',
        `Host "${host ?? ''}" is not one this service answers to; add it with --allowed-host`,
      );
    }
    const origin = req.headers.origin;
    if (origin !== undefined) {
      const given = URL.parse(origin);
      const web = given?.protocol === 'http:' || given?.protocol === 'https:';
      // A Host can pass with a port that is no number (a name allowed on any port); it then names no origin.
      const own = URL.parse(`${schemeOf(req, trustedProxy)}://${host}`)?.origin;
      const same = web && own !== undefined && given!.origin === own;
      if (!same && !origins.has(origin.toLowerCase())) {
        throw new ProblemError('origin_not_allowed', `requests from origin "${origin}" are refused`);
      }
    } else if (req.headers['sec-fetch-site'] === 'cross-site') {
      throw new ProblemError('origin_not_allowed', 'cross-site requests are refused');
    }
  };

  /** Whether the client used https: what a cookie's Secure attribute must follow. */
  const secure = (req: IncomingMessage) => schemeOf(req, trustedProxy) === 'https';

  return { guard, allowHost, allowListenAddress, secure };
}

/**
 * The check every administrator-only operation makes first (accounts, workspaces, settings,
 * snapshots): anyone else gets 403 `admin_required`, naming what they tried.
 */
export function requireAdmin(principal: Pick<Principal, 'admin'>, what: string): void {
  if (!principal.admin) throw new ProblemError('admin_required', `only an administrator may ${what}`);
}
