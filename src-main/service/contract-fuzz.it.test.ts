/**
 * The contract fuzz: every operation of the contract table, sent hostile parameters over real HTTP
 * to the service and its simulator. No input may give a 5xx but the cluster's own 502/504 (and a
 * cache's 503 cluster_syncing with Retry-After, which asks the client to come back), no request may
 * go unanswered, and every 4xx is problem+json that the problem schema reads; a success is checked
 * against its operation's result schema (test-support/contract-check.test-support.ts). The requests
 * come from each operation's own schemas (test-support/contract-fuzz.test-support.ts), so a new
 * operation is fuzzed as soon as it is in the table; one without a valid baseline here fails the
 * first test.
 *
 * Bounded: SKIFF_FUZZ_RUNS requests (20 by default) for each part of each operation alone (a path
 * or query parameter, a body field, the body), and as many with several parts at once: about
 * 5,000 requests, sent one at a time, to loopback only. Seeded: the seed is printed, and
 * SKIFF_FUZZ_SEED=<seed> repeats a run exactly.
 * Operations that end what the run stands on (removing an account, logging a session out,
 * revoking a key, deleting a workspace, changing a password) go last, each on a fixture of its own.
 */

import { DEMO_PODS } from '@skiff/kube-simulator';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationSpec } from '../../src-shared/contract/define';
import { type OperationName, operationNames, operations } from '../../src-shared/contract/operations';
import { problem } from '../../src-shared/contract/problem';
import { SNAPSHOT_MEDIA_TYPE } from '../../src-shared/contract/snapshot-operations';
import { checkAnswer } from './test-support/contract-check.test-support';
import {
  type Baseline,
  type FuzzRequest,
  hostileParts,
  mixedRequests,
  singlePartRequests,
} from './test-support/contract-fuzz.test-support';
import { pathParamsOf } from './test-support/contract-fuzz-schemas.test-support';
import { CLUSTER_ID, type Stack, startStack } from './test-support/harness.test-support';
import { type LoggedIn, login } from './test-support/login.test-support';

const SEED = Number(process.env.SKIFF_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.SKIFF_FUZZ_RUNS ?? 20);
const POD = DEMO_PODS.checkout;
const MEMBER = { username: 'fuzz-member', password: 'fuzz-member-password' };

/** Ends what the rest of the run stands on: after every other operation, each on its own fixture. */
const LAST: readonly OperationName[] = [
  'changePassword',
  'updateAccount',
  'removeAccount',
  'revokeApiKey',
  'logoutSession',
  'deleteWorkspace',
];

/** Valid bodies: each hostile request changes one to three parts of one of these. */
const BODIES: Partial<Record<OperationName, Record<string, unknown>>> = {
  updateCluster: { clusterAgent: { monitoring: {} } },
  login: { username: 'fuzz-nobody', password: 'not-the-password' },
  refresh: { refreshToken: 'not-a-refresh-token' },
  changePassword: { currentPassword: 'not-the-password', newPassword: 'fuzz-new-password' },
  createApiKey: { name: 'fuzz' },
  createAccount: { username: 'fuzz-new', password: 'fuzz-password-1' },
  updateAccount: { role: 'member' },
  createWorkspace: { workspaceId: 'fuzz-new', name: 'Fuzz' },
  updateWorkspace: { name: 'Fuzz' },
  updateAppSettings: { tokens: { accessTokenMinutes: 15 } },
  createSnapshot: { logs: 'none', logLines: 0 },
  oidcExchange: { code: 'skiff_oc_not-a-code' },
};

let stack: Stack;
let member: LoggedIn;
/** Path parameter values by name, and per operation where its own fixture differs. */
let params: Record<string, string>;

async function created<T>(res: Promise<{ status: number; body: unknown }>): Promise<T> {
  const { status, body } = await res;
  if (status >= 300) throw new Error(`fixture answered ${status}: ${JSON.stringify(body)}`);
  return body as T;
}

beforeAll(async () => {
  console.log(
    `contract fuzz: seed ${SEED}, ${RUNS} requests per operation (SKIFF_FUZZ_SEED=${SEED} repeats it)`,
  );
  stack = await startStack();
  const account = (username: string, role = 'member') =>
    created<{ accountId: string }>(
      stack.send('POST', '/v1/auth/accounts', {
        username,
        password: MEMBER.password,
        role,
        workspaces: ['default'],
      }),
    );
  await account(MEMBER.username);
  member = await login(stack.url, MEMBER.username, MEMBER.password);
  const victim = await account('fuzz-victim');
  const other = await login(stack.url);
  const key = await created<{ apiKey: { apiKeyId: string } }>(
    stack.send('POST', '/v1/auth/api-keys', { name: 'fuzz' }),
  );
  await created(stack.send('POST', '/v1/workspaces', { workspaceId: 'fuzz-ws', name: 'Fuzz' }));
  const job = await created<{ snapshotId: string }>(
    stack.send('POST', `/v1/workspaces/default/clusters/${CLUSTER_ID}/snapshots`, { logs: 'none' }),
  );
  params = {
    workspaceId: 'default',
    clusterId: CLUSTER_ID,
    namespace: POD.namespace,
    resourceType: 'pod',
    resourceName: POD.name,
    reason: 'BackOff',
    snapshotId: job.snapshotId,
    sessionId: other.sessionId,
    apiKeyId: key.apiKey.apiKeyId,
    accountId: victim.accountId,
    // A kept run's path (kept logs): a container and its restart index.
    container: POD.container,
    restartCount: '0',
  };
}, 60_000);
/** How many answers of each status: shows that hostile requests reach the handlers, not only the 400s. */
const STATUSES: Record<number, number> = {};
afterAll(async () => {
  console.log(`contract fuzz: answers by status ${JSON.stringify(STATUSES)}`);
  await stack?.close();
});

function baseline(name: OperationName): Baseline {
  const spec = operations[name] as OperationSpec;
  // The workspace operations change a workspace of their own, never the default one.
  const values: Record<string, string> =
    name === 'updateWorkspace' || name === 'deleteWorkspace' ? { ...params, workspaceId: 'fuzz-ws' } : params;
  const body = BODIES[name];
  return {
    params: Object.fromEntries(pathParamsOf(spec).map((p) => [p, values[p] ?? ''])),
    ...(spec.when ? { query: { [spec.when.query]: spec.when.equals ?? '1h' } } : {}),
    ...(body ? { body } : {}),
    ...(spec.consumes
      ? { upload: { bytes: new TextEncoder().encode('not a snapshot'), contentType: SNAPSHOT_MEDIA_TYPE } }
      : {}),
  };
}

const isStream = (contentType: string) =>
  /^(text\/event-stream|application\/x-ndjson|text\/plain|text\/csv|application\/vnd\.skiff)/.test(
    contentType,
  );

/** What is wrong with the answer to `req`, or undefined when nothing is. */
async function judge(req: FuzzRequest, as: LoggedIn): Promise<string | undefined> {
  let res: Response;
  try {
    res = await fetch(stack.url + req.target, {
      method: req.method,
      headers: {
        ...as.headers,
        ...req.headers,
        ...(req.body && req.body.contentType !== '' ? { 'content-type': req.body.contentType } : {}),
      },
      // Bytes: fetch would give text a Content-Type of its own, and a body without one is a case too.
      ...(req.body ? { body: req.body.bytes } : {}),
      redirect: 'manual',
      // Generous: only a request the service never answers gets here.
      signal: AbortSignal.timeout(60_000),
    });
  } catch (err) {
    return `got no HTTP answer: ${String((err as Error).cause ?? err)}`;
  }
  const contentType = res.headers.get('content-type') ?? '';
  STATUSES[res.status] = (STATUSES[res.status] ?? 0) + 1;
  if (res.ok && isStream(contentType)) {
    // A stream (logs, the watch, a download) may never end: its status and type are the answer.
    await res.body?.cancel();
    return undefined;
  }
  const text = await res.text();
  const what = `answered ${res.status} ${contentType}: ${text.slice(0, 300)}`;
  const retryable = res.status === 503 && res.headers.has('retry-after') && text.includes('cluster_syncing');
  if (res.status >= 500 && res.status !== 502 && res.status !== 504 && !retryable) return what;
  if (res.status >= 400) {
    if (!contentType.startsWith('application/problem+json')) return `${what} (not problem+json)`;
    const read = problem.safeParse(jsonOrText(text));
    if (!read.success || read.data.status !== res.status) return `${what} (not a problem of that status)`;
    return undefined;
  }
  try {
    // A success must be what its operation's result schema says.
    checkAnswer(
      req.method,
      req.target,
      res.status,
      contentType,
      contentType.includes('json') ? jsonOrText(text) : text,
    );
  } catch (err) {
    return `${what}\n${String(err)}`;
  }
  return undefined;
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A seed per operation, from its name: adding an operation does not change the others' runs. */
const seedOf = (name: string) =>
  [...name].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, SEED);

describe('the contract table', () => {
  it('every operation has a valid baseline to start hostile requests from', () => {
    for (const name of operationNames) {
      const spec = operations[name] as OperationSpec;
      const base = baseline(name);
      for (const p of pathParamsOf(spec)) expect(base.params[p], `${name}: ${p}`).not.toBe('');
      if (!spec.consumes) expect(spec.body.safeParse(base.body).success, `${name}: its body`).toBe(true);
    }
  });
});

/** The issue's own cases: each was a 500 (RangeError: Invalid time value) or silently accepted. */
describe('durations and instants past what a date can hold (issue 22 §2)', () => {
  const cluster = `/v1/workspaces/default/observability/${CLUSTER_ID}`;
  const logs = `${cluster}/kubernetes-proxy/namespaces/${POD.namespace}/pod/${POD.name}/logs`;
  const events = `${cluster}/kubernetes-events`;
  const cases: Array<[string, string, string]> = [
    ...['99999999999d', '999999999999999s', '9007199254740993ms', '1'.repeat(26)].flatMap(
      (v): Array<[string, string, string]> => [
        [logs, 'since', v],
        [logs, 'until', v],
      ],
    ),
    ...['', '/timeline', '/groups', '?watch=true'].flatMap((sub) =>
      ['since', 'until'].map((p): [string, string, string] => [`${events}${sub}`, p, '99999999999d']),
    ),
    [`${events}/timeline`, 'since', '36501d'],
  ];

  it.each(cases)('%s %s=%s is a 400 naming the parameter and its range', async (path, param, value) => {
    const target = `${path}${path.includes('?') ? '&' : '?'}${param}=${value}`;
    // Not read to its end: were it answered 200, the watch would stream until the test's timeout.
    const res = await fetch(stack.url + target, { headers: stack.session.headers });
    if (res.status === 200) await res.body?.cancel();
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = JSON.parse(text) as { code: string; detail: string };
    expect(body.code).toBe('invalid_query');
    expect(body.detail).toMatch(
      new RegExp(`^${param} must be (a duration of at most 36500d|an instant from 0000)`),
    );
  });
});

const ordered = [...operationNames.filter((n) => !LAST.includes(n)), ...LAST];

describe.each(ordered)('%s', (name) => {
  it('answers hostile parameters without a 5xx, every refusal problem+json', async () => {
    const spec = operations[name] as OperationSpec;
    const base = baseline(name);
    const as = name === 'changePassword' ? member : stack.session;
    const check = async (req: FuzzRequest) => {
      const wrong = await judge(req, as);
      if (wrong) throw new Error(`${req.method} ${req.target.slice(0, 500)} ${wrong}`);
    };
    // Each part alone, so that every hostile value reaches the parser that owns it; then mixed.
    for (const part of hostileParts(spec, base)) {
      await fc.assert(fc.asyncProperty(singlePartRequests(spec, base, part), check), {
        seed: seedOf(`${name} ${part.label}`),
        numRuns: RUNS,
      });
    }
    await fc.assert(fc.asyncProperty(mixedRequests(spec, base), check), {
      seed: seedOf(name),
      numRuns: RUNS,
    });
  }, 300_000);
});
