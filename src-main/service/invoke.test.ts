/**
 * The invoker (invoke.ts): where raw input from any transport becomes typed input, and every way
 * it can be wrong becomes one problem with a stable code and a list of what is wrong.
 */
import { describe, expect, it } from 'vitest';
import type { OperationName } from '../../src-shared/contract/operations';
import type { CallContext, OperationHandlers } from './context';
import { ProblemError } from './errors';
import { createInvoker, type RawCall } from './invoke';

const W = { workspaceId: 'default', clusterId: 'sim' };
const CTX = { client: { via: 'ipc' } } as unknown as CallContext;

/** An invoker whose handlers record what they were handed. */
function invoker() {
  const handed: Array<{ name: string; input: unknown; ctx: CallContext }> = [];
  const handlers = new Proxy(
    {},
    {
      get: (_t, name) => async (input: unknown, ctx: CallContext) => {
        handed.push({ name: String(name), input, ctx });
        return { data: `answer of ${String(name)}` };
      },
    },
  ) as OperationHandlers;
  return { invoke: createInvoker(handlers), handed };
}

/** The problem an invalid call is refused with. */
async function refusal(name: OperationName, raw: Partial<RawCall>) {
  const { invoke, handed } = invoker();
  const err = await invoke(name, { params: {}, query: {}, body: undefined, ...raw }, CTX).catch(
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProblemError);
  expect(handed).toEqual([]);
  return (err as ProblemError).toProblem() as ReturnType<ProblemError['toProblem']> & {
    errors: Array<{ in: string; field?: string; message: string }>;
  };
}

describe('the invoker', () => {
  it('hands the handler typed input and the context, and answers its reply', async () => {
    const { invoke, handed } = invoker();
    const reply = await invoke('listWorkspaces', { params: {}, query: { limit: '5' }, body: undefined }, CTX);
    expect(reply).toEqual({ data: 'answer of listWorkspaces' });
    expect(handed).toEqual([
      { name: 'listWorkspaces', input: { params: {}, query: { limit: 5, offset: 0 } }, ctx: CTX },
    ]);
  });

  it('checks the path before the query, so a bad path is named first', async () => {
    const p = await refusal('listResources', {
      // Which kinds a cluster serves is the handler's to say; the edge refuses what is no kind name.
      params: { ...W, resourceType: 'no pe' },
      query: { limit: 'x' },
    });
    expect(p.code).toBe('invalid_resource_type');
  });

  it("uses a custom issue's problem code and passes on its other facts, not the code", async () => {
    const p = await refusal('listResources', {
      params: { ...W, resourceType: 'pod' },
      query: { labelSelector: 'a in (' },
    });
    expect(p).toMatchObject({ code: 'invalid_label_selector', requirement: 'a in (' });
    expect(p.detail).toMatch(/^invalid labelSelector requirement/);
    expect(p).not.toHaveProperty('problemCode');
    expect(p.errors).toEqual([{ in: 'query', field: 'labelSelector', message: p.detail }]);
  });

  it('names unknown query parameters, one or several', async () => {
    const one = await refusal('listWorkspaces', { query: { foo: '1' } });
    expect([one.code, one.detail]).toEqual(['unknown_query_parameter', 'unknown query parameter: foo']);
    const two = await refusal('listWorkspaces', { query: { foo: '1', bar: '2' } });
    expect(two.detail).toBe('unknown query parameters: foo, bar');
  });

  it('calls a bad limit or offset invalid_pagination and any other bad query value invalid_query', async () => {
    expect((await refusal('listWorkspaces', { query: { limit: 'x' } })).code).toBe('invalid_pagination');
    expect((await refusal('listWorkspaces', { query: { offset: '-1' } })).code).toBe('invalid_pagination');
    const type = await refusal('listEvents', { params: W, query: { type: 'x' } });
    expect(type).toMatchObject({ code: 'invalid_query', errors: [{ in: 'query', field: 'type' }] });
  });

  it('calls a bad path parameter invalid_parameter, naming the field', async () => {
    const p = await refusal('listClusters', { params: { workspaceId: 'Bad Id' } });
    expect(p.code).toBe('invalid_parameter');
    expect(p.detail).toMatch(/^workspaceId: /);
    expect(p.errors).toEqual([{ in: 'params', field: 'workspaceId', message: p.detail }]);
  });

  it('calls a bad body invalid_body and lists every issue, missing fields as required', async () => {
    const p = await refusal('createWorkspace', { body: { workspaceId: 'a', x: 1, y: 2 } });
    expect(p).toMatchObject({ code: 'invalid_body', detail: 'name is required' });
    expect(p.errors).toEqual([
      { in: 'body', field: 'name', message: 'name is required' },
      { in: 'body', message: 'unknown fields: x, y' },
    ]);
  });

  it('says what is wrong with a field of the wrong type instead of calling it missing', async () => {
    const p = await refusal('createWorkspace', { body: { workspaceId: 'a', name: 5 } });
    expect(p.detail).toMatch(/^name: /);
    expect(p.detail).not.toMatch(/required/);
  });

  it('gives a body that is not an object its message alone, with no field', async () => {
    const p = await refusal('createWorkspace', { body: 'text' });
    expect(p.code).toBe('invalid_body');
    expect(p.errors).toEqual([{ in: 'body', message: p.detail }]);
    expect(p.errors[0]).not.toHaveProperty('field', expect.anything());
  });
});
