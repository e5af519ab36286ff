import type { IncomingMessage } from 'node:http';
import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { ProblemError } from '../errors';
import { createRequestGuard, requireAdmin } from './guard';

/**
 * The guard's rules called directly, for what HTTP tests cannot set up: a service on port 80, a
 * machine's interface list, a Host or Origin no client library sends. guard.it.test.ts and
 * guard-host.it.test.ts state the same rules over HTTP where they can.
 */

// This machine's interfaces, as the wildcard listen address sees them: the environment, not the guard.
const nics = vi.hoisted(() => ({ list: {} as Record<string, NetworkInterfaceInfo[] | undefined> }));
vi.mock('node:os', async (importOriginal) => ({
  ...(await importOriginal<typeof import('node:os')>()),
  networkInterfaces: () => nics.list,
}));

function nic(address: string, internal: boolean): NetworkInterfaceInfo {
  const family = address.includes(':') ? 'IPv6' : 'IPv4';
  const common = { address, internal, mac: '00:00:00:00:00:00', netmask: '', cidr: null };
  return family === 'IPv6' ? { ...common, family, scopeid: 0 } : { ...common, family };
}

type Guard = ReturnType<typeof createRequestGuard>['guard'];

/** The problem the guard refuses this request with, or undefined; any other error fails the test. */
function problem(
  guard: Guard,
  host: string | undefined,
  localPort: number,
  more: Record<string, string> = {},
) {
  const headers = { ...(host === undefined ? {} : { host }), ...more };
  try {
    guard({ headers, socket: { localPort } } as unknown as IncomingMessage);
    return undefined;
  } catch (e) {
    if (e instanceof ProblemError) return e;
    throw e;
  }
}

/** 'ok', or the code of the problem the guard refuses with. */
const verdict = (...args: Parameters<typeof problem>) => problem(...args)?.code ?? 'ok';

describe('Host', () => {
  it('on port 80 a loopback name without a port is accepted, and with another port is not', () => {
    const { guard } = createRequestGuard({});
    for (const host of ['localhost', '127.0.0.1', '[::1]', 'localhost:80', '[::1]:80'])
      expect(verdict(guard, host, 80), host).toBe('ok');
    for (const host of ['localhost:8080', '127.0.0.1:81', '[::1]:8080'])
      expect(verdict(guard, host, 80), host).toBe('host_not_allowed');
    // On any other port, no port still means 80.
    expect(verdict(guard, 'localhost', 8080)).toBe('host_not_allowed');
    expect(verdict(guard, 'localhost:8080', 8080)).toBe('ok');
  });

  it('configured hosts are read without surrounding spaces and without regard to case', () => {
    const { guard } = createRequestGuard({ allowedHosts: ['  Spaced.LAN:8443 ', ' Any.Example.TEST '] });
    for (const host of ['spaced.lan:8443', 'SPACED.lan:8443', 'any.example.test:7', 'ANY.EXAMPLE.TEST'])
      expect(verdict(guard, host, 4000), host).toBe('ok');
    expect(verdict(guard, 'spaced.lan:8444', 4000)).toBe('host_not_allowed');
  });

  it('a host configured both with and without a port is reached on any port, in either order', () => {
    const { guard } = createRequestGuard({
      allowedHosts: ['first.lan', 'first.lan:8443', 'last.lan:8443', 'last.lan'],
    });
    for (const host of ['first.lan:1234', 'first.lan', 'first.lan:8443', 'last.lan:1234', 'last.lan'])
      expect(verdict(guard, host, 4000), host).toBe('ok');
  });

  it('a host configured with two ports is reached on either, and on no other', () => {
    const { guard } = createRequestGuard({ allowedHosts: ['two.lan:9443', 'two.lan:8443'] });
    expect(verdict(guard, 'two.lan:8443', 4000)).toBe('ok');
    expect(verdict(guard, 'two.lan:9443', 4000)).toBe('ok');
    expect(verdict(guard, 'two.lan:80', 4000)).toBe('host_not_allowed');
    expect(verdict(guard, 'two.lan', 4000)).toBe('host_not_allowed');
  });

  it('a refused Host is named in the problem, a missing one as empty', () => {
    const { guard } = createRequestGuard({});
    const named = problem(guard, 'evil.example:4000', 4000);
    expect(named?.code).toBe('host_not_allowed');
    expect(named?.message).toContain('"evil.example:4000"');
    const missing = problem(guard, undefined, 4000);
    expect(missing?.code).toBe('host_not_allowed');
    expect(missing?.message).toContain('Host ""');
  });
});

describe('a wildcard listen address', () => {
  const machine = {
    lo: [nic('127.0.0.1', true), nic('::1', true), nic('127.0.0.9', true)],
    eth0: [nic('192.0.2.44', false), nic('fd00::44', false)],
    // Node's type allows an interface without a list; it adds nothing.
    wlan0: undefined,
  };

  for (const address of ['0.0.0.0', '::']) {
    it(`${address} makes external interfaces' addresses valid hosts, and no other loopback address`, () => {
      nics.list = machine;
      const { guard, allowListenAddress } = createRequestGuard({});
      expect(verdict(guard, '192.0.2.44:4000', 4000)).toBe('host_not_allowed');
      allowListenAddress(address);
      for (const host of ['192.0.2.44:4000', '[fd00::44]:4000', '192.0.2.44'])
        expect(verdict(guard, host, 4000), host).toBe('ok');
      // Loopback addresses other than the loopback names stay refused, on every port.
      for (const host of ['127.0.0.9:4000', '127.0.0.9', '127.0.0.1:4001', `${address}:4000`, '[::]:4000'])
        expect(verdict(guard, host, 4000), host).toBe('host_not_allowed');
    });
  }
});

describe('Origin', () => {
  const host = '127.0.0.1:4000';

  it('configured origins are accepted whatever their case and trailing slash, and no others', () => {
    const { guard } = createRequestGuard({
      allowedOrigins: ['https://Tools.Example.TEST/', 'http://dash.lan:8080'],
    });
    for (const origin of ['https://tools.example.test', 'HTTPS://TOOLS.example.test', 'http://dash.lan:8080'])
      expect(verdict(guard, host, 4000, { origin }), origin).toBe('ok');
    for (const origin of [
      'https://tools.example.test:8443',
      'http://tools.example.test',
      'https://evil.example',
    ])
      expect(verdict(guard, host, 4000, { origin }), origin).toBe('origin_not_allowed');
  });

  it('only an http or https Origin naming the Host is same-origin', () => {
    const { guard } = createRequestGuard({});
    expect(verdict(guard, host, 4000, { origin: `http://${host}` })).toBe('ok');
    for (const origin of [`ws://${host}`, `ftp://${host}`, 'chrome-extension://127.0.0.1:4000'])
      expect(verdict(guard, host, 4000, { origin }), origin).toBe('origin_not_allowed');
  });

  /** The guard's verdict on a request over a socket of this kind (TLS or not, from this peer). */
  function over(
    guard: Guard,
    socket: { encrypted?: boolean; remoteAddress?: string },
    headers: Record<string, string>,
  ) {
    try {
      guard({
        headers: { host, ...headers },
        socket: { localPort: 4000, ...socket },
      } as unknown as IncomingMessage);
      return 'ok';
    } catch (e) {
      if (e instanceof ProblemError) return e.code;
      throw e;
    }
  }

  it('the scheme is part of the origin: https over TLS, http otherwise', () => {
    const { guard } = createRequestGuard({});
    expect(over(guard, {}, { origin: `https://${host}` })).toBe('origin_not_allowed');
    expect(over(guard, { encrypted: true }, { origin: `https://${host}` })).toBe('ok');
    expect(over(guard, { encrypted: true }, { origin: `http://${host}` })).toBe('origin_not_allowed');
  });

  it('a trusted proxy’s X-Forwarded-Proto names the scheme, its first value; nobody else’s does', () => {
    const { guard } = createRequestGuard({ trustedProxy: (a) => a === '10.0.0.5' });
    const proxied = (proto: string, remoteAddress = '10.0.0.5', origin = `https://${host}`) =>
      over(guard, { remoteAddress }, { origin, 'x-forwarded-proto': proto });
    expect(proxied('https')).toBe('ok');
    expect(proxied(' HTTPS , http')).toBe('ok');
    expect(proxied('http, https')).toBe('origin_not_allowed');
    expect(proxied('http', '10.0.0.5', `http://${host}`)).toBe('ok');
    expect(proxied('https', '10.0.0.5', `http://${host}`)).toBe('origin_not_allowed');
    expect(proxied('https', '10.0.0.6')).toBe('origin_not_allowed');
    expect(proxied('https', '10.0.0.6', `http://${host}`)).toBe('ok');
  });

  it('the port is part of the origin, a default port written or not', () => {
    const { guard } = createRequestGuard({ allowedHosts: ['box.lan'] });
    expect(over(guard, {}, { host: 'box.lan', origin: 'http://box.lan:80' })).toBe('ok');
    expect(over(guard, {}, { host: 'box.lan:80', origin: 'http://box.lan' })).toBe('ok');
    expect(over(guard, {}, { host: 'box.lan:8080', origin: 'http://box.lan' })).toBe('origin_not_allowed');
    expect(over(guard, {}, { host: 'box.lan', origin: 'http://box.lan:8080' })).toBe('origin_not_allowed');
    expect(over(guard, { encrypted: true }, { host: 'box.lan', origin: 'https://box.lan:443' })).toBe('ok');
  });

  it('a refused Origin is named in the problem', () => {
    const { guard } = createRequestGuard({});
    const refused = problem(guard, host, 4000, { origin: 'https://evil.example' });
    expect(refused?.code).toBe('origin_not_allowed');
    expect(refused?.message).toContain('https://evil.example');
  });

  it('an Origin on a Host whose port is no number is refused, not an internal error', () => {
    const { guard } = createRequestGuard({
      allowedHosts: ['any-port.lan'],
      allowedOrigins: ['https://tools.lan'],
    });
    for (const badHost of ['any-port.lan:abc', 'any-port.lan:99999']) {
      expect(verdict(guard, badHost, 4000), badHost).toBe('ok');
      for (const origin of ['https://evil.example', `http://${badHost}`, 'null'])
        expect(verdict(guard, badHost, 4000, { origin }), `${badHost} ${origin}`).toBe('origin_not_allowed');
      expect(verdict(guard, badHost, 4000, { origin: 'https://tools.lan' })).toBe('ok');
    }
  });
});

describe('requireAdmin', () => {
  it('lets an administrator through and refuses anyone else with 403 admin_required, naming the action', () => {
    expect(() => requireAdmin({ admin: true }, 'manage accounts')).not.toThrow();
    let thrown: unknown;
    try {
      requireAdmin({ admin: false }, 'manage accounts');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ProblemError);
    expect(thrown).toMatchObject({
      code: 'admin_required',
      message: 'only an administrator may manage accounts',
    });
    expect((thrown as ProblemError).status).toBe(403);
  });
});
