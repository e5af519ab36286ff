/**
 * A provider that accepts the connection and never answers (a hung proxy, a stuck pod) must not
 * hang Skiff: every request to it is bounded (relying-party.ts, 5 s). A real TCP listener on
 * loopback that reads and never writes. Proves: /v1/auth/methods answers, saying the provider is
 * unavailable; a login navigation is sent back with oidc_unavailable (it said oidc_token_invalid:
 * openid-client wraps the timeout in a ClientError); the local administrator still signs in.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type AuthStack, startAuthStack } from '../auth/stack.test-support';

let stack: AuthStack | undefined;
let silent: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  await stack?.close();
  stack = undefined;
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
});

async function silentProvider(): Promise<string> {
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => {});
  });
  await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
}

describe('a provider that never answers', () => {
  it('is reported unavailable, sends a login back, and never blocks a password login', async () => {
    const issuer = await silentProvider();
    stack = await startAuthStack({
      auth: {
        secretKey: 'k'.repeat(32),
        oidc: { issuer, clientId: 'skiff', name: 'Team IdP', allowInsecureRequests: true },
      },
      config: { publicUrl: 'http://127.0.0.1:7733' },
    });
    const [methods, login] = await Promise.all([
      stack.call<{ oidc: { available: boolean; detail?: string } }>('GET', '/v1/auth/methods'),
      stack.call('GET', '/v1/auth/oidc/login', {
        headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' },
      }),
    ]);
    expect(methods.status).toBe(200);
    expect(methods.body.oidc.available).toBe(false);
    expect(methods.body.oidc.detail).toBeTruthy();
    expect(login.status).toBe(302);
    expect(login.headers.location).toBe('http://127.0.0.1:7733/?oidc_error=oidc_unavailable');
    // A password login does not wait for the provider at all.
    expect((await stack.login()).bearer).toBeTruthy();
    expect(sockets.size).toBeGreaterThan(0);
  }, 60_000);
});
