/**
 * Watches that never read their stream: a HEAD request (answered with the headers alone, so the
 * stream's own clean-up never runs) and an in-process caller that only looks at the reply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamBody } from '../../../../src-shared/contract/define';
import { eventually } from '../../test-support/eventually.test-support';
import { type Stack, startStack } from '../../test-support/harness.test-support';

const MAX_WATCHES = 2;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ service: { eventWatch: { maxPerCredential: MAX_WATCHES } } });
});
afterAll(async () => stack?.close());

describe('event watch slots', () => {
  it('a watch answered without its stream (HEAD) gives its slot back', async () => {
    const path = `${stack.cluster}/kubernetes-events?watch=true`;
    for (let i = 0; i <= MAX_WATCHES; i++) {
      const res = await stack.send('HEAD', path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    }
    await eventually(async () => expect(stack.service.openEventWatches()).toBe(0));
  });
});

describe('an in-process caller of the event watch', () => {
  it('that names no media type gets Server-Sent Events, and its slot back once it lets go', async () => {
    const principal = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
    const abort = new AbortController();
    const reply = await stack.service.invoke(
      'watchEvents',
      {
        params: { workspaceId: 'default', clusterId: 'sim-test' },
        query: { watch: 'true' },
        body: undefined,
      },
      { principal, client: { via: 'ipc' }, signal: abort.signal },
    );
    expect((reply.data as StreamBody).contentType).toBe('text/event-stream; charset=utf-8');
    expect(stack.service.openEventWatches()).toBe(1);
    abort.abort();
    await eventually(async () => expect(stack.service.openEventWatches()).toBe(0));
  });
});
