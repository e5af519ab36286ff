import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AuthStack, startAuthStack } from './stack.test-support';

/**
 * The Host guard on every form of Host it parses: names and IP literals, IPv6 in brackets, an
 * explicit port and the implicit one (80), and the addresses a wildcard listen address adds.
 * Requests always travel over loopback; only the Host header names the other forms.
 */

/** The status of GET /v1/health sent to 127.0.0.1:port with exactly this Host header (and these others). */
function statusFor(port: number, host: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/v1/health', headers: { ...headers, host }, setHost: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** This machine's own non-loopback addresses, as Host headers write them. */
function interfaceHosts(): { v4: string | undefined; v6: string | undefined } {
  const nics = Object.values(networkInterfaces())
    .flat()
    .filter((n) => n !== undefined && !n.internal);
  return {
    v4: nics.find((n) => n?.family === 'IPv4')?.address,
    v6: nics.find((n) => n?.family === 'IPv6')?.address,
  };
}
const NICS = interfaceHosts();

// A stack per test: the allowlist is parsed when the service starts, and a mutation run credits
// code run in a beforeAll to no test (docs/mutation-testing.md).
let stack: AuthStack;
beforeEach(async () => {
  stack = await startAuthStack({
    auth: {
      allowedHosts: ['web.lan:80', 'box.lan:8443', 'any-port.lan', '[fd12::7]:9000', 'fd12::8'],
    },
  });
});
afterEach(() => stack.close());

const accepted = async (host: string) => expect(await statusFor(stack.port, host), host).toBe(200);
const refused = async (host: string) => expect(await statusFor(stack.port, host), host).toBe(403);

describe('loopback names are accepted only with the port the request arrived on', () => {
  it('IPv4, localhost and IPv6 in brackets, with the right port', async () => {
    for (const host of [`127.0.0.1:${stack.port}`, `localhost:${stack.port}`, `[::1]:${stack.port}`])
      await accepted(host);
  });

  it('with another port', async () => {
    for (const host of [`127.0.0.1:${stack.port + 1}`, `[::1]:${stack.port + 1}`, 'localhost:80'])
      await refused(host);
  });

  it('without a port, which means 80, not the port the service is on', async () => {
    for (const host of ['127.0.0.1', '[::1]', 'localhost']) await refused(host);
  });

  it('an IPv6 address not in brackets, with an unclosed bracket, or no colon before its port, is no Host', async () => {
    for (const host of ['::1', `::1:${stack.port}`, `[::1:${stack.port}`, `[::1]x${stack.port}`])
      await refused(host);
  });
});

describe('configured names: a port given must match, an implicit port is 80, no port means any', () => {
  it('a name configured with :80 is reached without a port, or with :80', async () => {
    await accepted('web.lan');
    await accepted('web.lan:80');
    await refused('web.lan:8080');
  });

  it('a name configured with another port needs exactly that port', async () => {
    await accepted('box.lan:8443');
    await refused('box.lan');
    await refused('box.lan:8444');
    await refused('box.lan:80');
  });

  it('a name configured without a port is reached on any port, or none', async () => {
    await accepted('any-port.lan');
    await accepted('any-port.lan:1234');
    await refused('other.lan:1234');
  });

  it('a name allowed on any port, with a port that is no number, is no origin: its Origin is refused, not an error', async () => {
    await accepted('any-port.lan:abc');
    for (const origin of ['http://any-port.lan:abc', 'https://evil.example']) {
      expect(await statusFor(stack.port, 'any-port.lan:abc', { origin }), origin).toBe(403);
    }
    expect(await statusFor(stack.port, 'any-port.lan:1234', { origin: 'http://any-port.lan:1234' })).toBe(
      200,
    );
  });

  it('IPv6 literals are configured and matched in brackets', async () => {
    await accepted('[fd12::7]:9000');
    await refused('[fd12::7]:9001');
    await refused('[fd12::7]');
    await accepted('[fd12::8]');
    await accepted('[fd12::8]:5');
    await refused('[fd12::9]:9000');
  });
});

describe('a wildcard listen address makes this machine’s own addresses valid hosts', () => {
  const wildcard = (address: '0.0.0.0' | '::') => async () => {
    const other = await startAuthStack();
    try {
      // Not before: listening on loopback alone accepts none of them.
      if (NICS.v4) expect(await statusFor(other.port, `${NICS.v4}:${other.port}`)).toBe(403);
      if (NICS.v6) expect(await statusFor(other.port, `[${NICS.v6}]:${other.port}`)).toBe(403);
      const { url } = await other.service.listen(0, address);
      const port = Number(new URL(url).port);
      if (NICS.v4) expect(await statusFor(port, `${NICS.v4}:${port}`)).toBe(200);
      if (NICS.v6) expect(await statusFor(port, `[${NICS.v6}]:${port}`)).toBe(200);
      // The wildcard itself names no interface; a stranger's address stays refused.
      expect(await statusFor(port, `0.0.0.0:${port}`)).toBe(403);
      expect(await statusFor(port, `[::]:${port}`)).toBe(403);
      expect(await statusFor(port, `203.0.113.9:${port}`)).toBe(403);
      // Loopback still needs the right port.
      expect(await statusFor(port, `127.0.0.1:${port}`)).toBe(200);
      expect(await statusFor(port, `127.0.0.1:${port + 1}`)).toBe(403);
    } finally {
      await other.close();
    }
  };

  // Without a non-loopback interface there is no address to accept; the refusals still run above.
  it.skipIf(!NICS.v4 && !NICS.v6)('0.0.0.0', wildcard('0.0.0.0'));
  it.skipIf(!NICS.v4 && !NICS.v6)('::', wildcard('::'));
});

describe('a specific listen address becomes a valid host', () => {
  it.skipIf(!NICS.v4)('its own address, on the port it listens on', async () => {
    const other = await startAuthStack();
    try {
      expect(await statusFor(other.port, `${NICS.v4}:${other.port}`)).toBe(403);
      // Listening on the interface itself; the request still goes to the loopback listener.
      await other.service.listen(0, NICS.v4!);
      expect(await statusFor(other.port, `${NICS.v4}:${other.port}`)).toBe(200);
    } finally {
      await other.close();
    }
  });
});
