import { z } from 'zod';
import { operations } from '../../../src-shared/contract/operations';
import { problem } from '../../../src-shared/contract/problem';
import { createApiRouter } from '../http/router';

/**
 * Test support: every answer the HTTP integration suites receive is checked against the contract.
 * A JSON success must parse with its operation's result schema (strict: a field the schema does
 * not name fails), and a problem+json body with the problem schema. So the API document, which is
 * generated from those schemas, cannot drift from what the service sends. The service itself never
 * validates its answers (cost); the suites do, through their HTTP helpers.
 */

const router = createApiRouter();

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

/** Throws a ContractViolation naming the operation and the offending fields; returns otherwise. */
export function checkAnswer(
  method: string,
  url: string,
  status: number,
  contentType: string,
  body: unknown,
): void {
  if (method.toUpperCase() === 'HEAD' || status === 304 || body === '' || body === undefined) return;
  const { pathname, searchParams } = new URL(url, 'http://local');
  if (contentType.includes('application/problem+json')) {
    const checked = problem.safeParse(body);
    if (!checked.success)
      throw new ContractViolation(
        `${method} ${pathname} answered ${status} with a body that is not a problem: ${z.prettifyError(checked.error)}`,
      );
    if (checked.data.status !== status)
      throw new ContractViolation(
        `${method} ${pathname} answered ${status} with a problem whose status is ${checked.data.status}`,
      );
    return;
  }
  if (status < 200 || status >= 300 || !contentType.includes('application/json')) return;
  const match = router.match(method, pathname, searchParams);
  if (match === null || 'allowed' in match) return; // not an operation: /v1/openapi.json
  const spec = operations[match.name];
  if (spec.streaming) return; // a stream is read by its own suite
  const checked = (spec.result as z.ZodType).safeParse(body);
  if (!checked.success)
    throw new ContractViolation(
      `${method} ${pathname} (${match.name}) answered a body its result schema refuses:\n${z.prettifyError(checked.error)}`,
    );
}

/** The same for a fetch Response whose text was read: parses it as the suites do, and checks. */
export function checkedBody<T>(method: string, url: string, res: Response, text: string): T {
  const contentType = res.headers.get('content-type') ?? '';
  const body = contentType.includes('json') && text !== '' ? (JSON.parse(text) as unknown) : text;
  checkAnswer(method, url, res.status, contentType, body);
  return body as T;
}
