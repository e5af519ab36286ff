/**
 * Discovery as the relying party does it (relying-party.ts metadata/discover): what it keeps of a
 * provider's document, what it refuses, and how often it asks. The provider here is a loopback
 * HTTP server that serves a discovery document and counts the requests, because the real test
 * provider (provider.test-support.ts) cannot be made to publish a broken document or to answer
 * 500; what the real provider publishes is checked against it at the end.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveOidc } from './options';
import { startTestProvider, type TestProvider } from './provider.test-support';
import { OidcFailure, RelyingParty } from './relying-party';

let server: Server;
let issuer: string;
let requests = 0;
/** How the last token request authenticated the client: its Authorization header and form body. */
let tokenRequest: { authorization: string | undefined; body: URLSearchParams } | undefined;
/** The token endpoint holds its answer (a provider that hangs) while true. */
let hangToken = false;
/** A token response to answer with (200) instead of refusing the grant. */
let tokenAnswer: Record<string, unknown> | undefined;
/** What the next discovery requests are answered with. */
let answer: { status: number; doc?: Record<string, unknown> } = { status: 200 };

const docOf = (extra: Record<string, unknown> = {}) => ({
  issuer,
  authorization_endpoint: `${issuer}/auth`,
  token_endpoint: `${issuer}/token`,
  jwks_uri: `${issuer}/jwks`,
  response_types_supported: ['code'],
  subject_types_supported: ['public'],
  id_token_signing_alg_values_supported: ['RS256'],
  ...extra,
});

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    if (req.url === '/token') {
      let raw = '';
      req.on('data', (chunk: Buffer) => {
        raw += chunk.toString();
      });
      req.on('end', () => {
        tokenRequest = { authorization: req.headers.authorization, body: new URLSearchParams(raw) };
        if (hangToken) return;
        if (tokenAnswer) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(tokenAnswer));
          return;
        }
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'grant request is invalid' }));
      });
      return;
    }
    if (req.url !== '/.well-known/openid-configuration') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.doc ?? docOf()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterEach(() => {
  answer = { status: 200 };
  hangToken = false;
  tokenRequest = undefined;
  tokenAnswer = undefined;
});

const party = (at = issuer, clientSecret: string | undefined = 'secret') =>
  new RelyingParty(
    resolveOidc(
      {
        issuer: at,
        clientId: 'skiff',
        ...(clientSecret ? { clientSecret } : {}),
        allowInsecureRequests: true,
      },
      'http://127.0.0.1:1',
    ),
    Date.now,
  );

const refusal = async (p: Promise<unknown>): Promise<OidcFailure> => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OidcFailure);
  return err as OidcFailure;
};

describe('discovery', () => {
  it('pins the ID token algorithms to the published ones, never none', async () => {
    answer = {
      status: 200,
      doc: docOf({ id_token_signing_alg_values_supported: ['none', 'RS256', 'ES256'] }),
    };
    const server = await party().metadata();
    expect(server.id_token_signing_alg_values_supported).toEqual(['RS256', 'ES256']);
    expect(server.jwks_uri).toBe(`${issuer}/jwks`);
  });

  it('takes RS256 when the provider publishes no algorithm list', async () => {
    const { id_token_signing_alg_values_supported: _, ...doc } = docOf();
    answer = { status: 200, doc };
    expect((await party().metadata()).id_token_signing_alg_values_supported).toEqual(['RS256']);
  });

  it('refuses a provider that publishes only none, or no JWKS', async () => {
    answer = { status: 200, doc: docOf({ id_token_signing_alg_values_supported: ['none'] }) };
    expect(await refusal(party().metadata())).toMatchObject({
      kind: 'invalid',
      message: 'the provider publishes no ID token signing algorithm but none',
    });
    const { jwks_uri: _, ...doc } = docOf();
    answer = { status: 200, doc };
    expect(await refusal(party().metadata())).toMatchObject({
      kind: 'invalid',
      message: 'the provider publishes no jwks_uri',
    });
  });

  it('concurrent callers share one request, and a success is kept', async () => {
    const rp = party();
    const before = requests;
    const [a, b] = await Promise.all([rp.metadata(), rp.metadata()]);
    expect(a).toBe(b);
    expect(requests - before).toBe(1);
    expect(await rp.metadata()).toBe(a);
    expect(requests - before).toBe(1);
    // Asked again when the caller wants it fresher than it is (the login redirect's probe).
    await rp.metadata(0);
    expect(requests - before).toBe(2);
    expect(await rp.availability()).toEqual({ available: true });
  });

  it('a failing provider is unavailable, and the failure is remembered instead of asking again', async () => {
    const rp = party();
    answer = { status: 500 };
    const before = requests;
    const first = await refusal(rp.metadata());
    expect(first.kind).toBe('unavailable');
    answer = { status: 200 };
    // Within FAILURE_TTL_MS (5 s): the same failure, no new request.
    expect(await refusal(rp.metadata())).toBe(first);
    expect(requests - before).toBe(1);
    expect(await rp.availability()).toEqual({ available: false, detail: first.message });
  });

  it('the failure is forgotten after FAILURE_TTL_MS (5 s): the provider is asked again', async () => {
    // Only Date is faked (the memory is timed by Date.now); sockets and timers stay real.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Date.now();
      const rp = party();
      answer = { status: 500 };
      const before = requests;
      const first = await refusal(rp.metadata());
      answer = { status: 200 };
      vi.setSystemTime(start + 4_999);
      expect(await refusal(rp.metadata())).toBe(first);
      expect(requests - before).toBe(1);
      vi.setSystemTime(start + 5_000);
      expect((await rp.metadata()).issuer).toBe(issuer);
      expect(requests - before).toBe(2);
      expect(await rp.availability()).toEqual({ available: true });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('at the token endpoint', () => {
  it('authenticates with client_secret_basic, the method every provider must support', async () => {
    const failure = await refusal(party().refresh('a-refresh-token'));
    expect(failure).toMatchObject({
      kind: 'rejected',
      message: 'the provider refused: invalid_grant (grant request is invalid)',
    });
    expect(tokenRequest?.authorization).toBe(`Basic ${Buffer.from('skiff:secret').toString('base64')}`);
    expect(tokenRequest?.body.get('client_secret')).toBeNull();
    expect(tokenRequest?.body.get('refresh_token')).toBe('a-refresh-token');
  });

  it('posts the secret in the body when the provider supports only client_secret_post', async () => {
    answer = { status: 200, doc: docOf({ token_endpoint_auth_methods_supported: ['client_secret_post'] }) };
    await refusal(party().refresh('a-refresh-token'));
    expect(tokenRequest?.authorization).toBeUndefined();
    expect(tokenRequest?.body.get('client_secret')).toBe('secret');
    expect(tokenRequest?.body.get('client_id')).toBe('skiff');
  });

  it('keeps basic when the provider lists it beside post', async () => {
    answer = {
      status: 200,
      doc: docOf({ token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'] }),
    };
    await refusal(party().refresh('a-refresh-token'));
    expect(tokenRequest?.authorization).toMatch(/^Basic /);
  });

  it('a public client (no secret) sends only its client_id', async () => {
    await refusal(party(issuer, '').refresh('a-refresh-token'));
    expect(tokenRequest?.authorization).toBeUndefined();
    expect(tokenRequest?.body.get('client_id')).toBe('skiff');
    expect(tokenRequest?.body.get('client_secret')).toBeNull();
  });

  it('a refresh keeps the refresh token the provider rotated to, or the one it had', async () => {
    const rp = party();
    tokenAnswer = { access_token: 'at', token_type: 'Bearer', expires_in: 60, refresh_token: 'rotated' };
    expect(await rp.refresh('a-refresh-token')).toEqual({
      claims: {},
      claimsFresh: false,
      refreshToken: 'rotated',
    });
    tokenAnswer = { access_token: 'at', token_type: 'Bearer', expires_in: 60 };
    expect(await rp.refresh('a-refresh-token')).toEqual({
      claims: {},
      claimsFresh: false,
      refreshToken: 'a-refresh-token',
    });
  });

  it('a provider that never answers is unavailable once the request times out', async () => {
    hangToken = true;
    const failure = await refusal(party().refresh('a-refresh-token'));
    // openid-client wraps the timeout in its own ClientError: still not an ID token refused.
    expect(failure.kind).toBe('unavailable');
  });
});

describe('discovery of the real test provider', () => {
  let op: TestProvider;
  beforeAll(async () => {
    op = await startTestProvider();
  });
  afterAll(async () => {
    await op?.close();
  });

  it('keeps what it publishes, its algorithms without none', async () => {
    const server = await party(op.issuer).metadata();
    expect(server.issuer).toBe(op.issuer);
    expect(server.jwks_uri).toBe(`${op.issuer}/jwks`);
    expect(server.id_token_signing_alg_values_supported).toContain('RS256');
    expect(server.id_token_signing_alg_values_supported).not.toContain('none');
  });
});
