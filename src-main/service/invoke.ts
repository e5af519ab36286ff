import type { z } from 'zod';
import type { Reply } from '../../src-shared/contract/define';
import { type OperationName, operations } from '../../src-shared/contract/operations';
import type { ProblemCode } from '../../src-shared/contract/problem';
import type { CallContext, OperationHandlers } from './context';
import { ProblemError } from './errors';

export interface RawCall {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
}

type Location = 'params' | 'query' | 'body';

const PAGINATION_FIELDS = new Set(['limit', 'offset']);

function issueCode(location: Location, issue: z.core.$ZodIssue): ProblemCode {
  const custom =
    issue.code === 'custom' ? (issue.params as { problemCode?: ProblemCode } | undefined) : undefined;
  if (custom?.problemCode) return custom.problemCode;
  if (location === 'query' && issue.code === 'unrecognized_keys') return 'unknown_query_parameter';
  if (location === 'query' && PAGINATION_FIELDS.has(String(issue.path[0]))) return 'invalid_pagination';
  if (location === 'body') return 'invalid_body';
  return location === 'params' ? 'invalid_parameter' : 'invalid_query';
}

function describeIssue(location: Location, issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const noun = location === 'query' ? 'query parameter' : 'field';
    return `unknown ${noun}${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
  }
  const field = issue.path.join('.');
  if (issue.code === 'custom' || !field) return issue.message;
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${field} is required`;
  return `${field}: ${issue.message}`;
}

function validated<T extends z.ZodType>(schema: T, value: unknown, location: Location): z.output<T> {
  // With the input in each issue, a field of the wrong type is told apart from a missing one.
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const issues = result.error.issues;
  const first = issues[0]!;
  const custom = first.code === 'custom' ? (first.params as Record<string, unknown> | undefined) : undefined;
  const { problemCode: _ignored, ...extensions } = custom ?? {};
  throw new ProblemError(issueCode(location, first), describeIssue(location, first), {
    ...extensions,
    errors: issues.map((i) => ({
      in: location,
      field: i.path.join('.') || undefined,
      message: describeIssue(location, i),
    })),
  });
}

export type Invoker = <K extends OperationName>(
  name: K,
  raw: RawCall,
  ctx: CallContext,
) => Promise<Reply<unknown>>;

/**
 * The single edge where raw input becomes typed input. HTTP and IPC both come through here, so an
 * operation validates the same way whichever transport carried it.
 */
export function createInvoker(handlers: OperationHandlers): Invoker {
  return async (name, raw, ctx) => {
    const spec = operations[name];
    // Params are validated first so that a bad path never reaches the cluster, whatever the query says.
    const params = validated(spec.params, raw.params, 'params');
    const query = validated(spec.query, raw.query, 'query');
    const body = validated(spec.body, raw.body, 'body');
    const handler = handlers[name] as (input: unknown, ctx: CallContext) => Promise<Reply<unknown>>;
    return handler({ params, query, body }, ctx);
  };
}
