import { z } from 'zod';
import type { OperationSpec } from '../../../src-shared/contract/define';
import { type OperationName, operations } from '../../../src-shared/contract/operations';
import { problem } from '../../../src-shared/contract/problem';
import { SseParser } from '../../../src-shared/streams/sse';
import { createApiRouter } from '../http/router';

/**
 * Test support: every answer the HTTP integration suites receive is checked against the contract.
 * A JSON success must parse with its operation's result schema (strict: a field the schema does
 * not name fails), and a problem+json body with the problem schema. So the API document, which is
 * generated from those schemas, cannot drift from what the service sends. A stream of records
 * (NDJSON, SSE) is checked record by record against its operation's `records` schema: whole when a
 * helper read it to its end, one by one by the stream clients (checkRecord). The service itself
 * never validates its answers (cost); the suites do, through their HTTP helpers.
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
  if (status < 200 || status >= 300) return;
  const match = router.match(method, pathname, searchParams);
  if (match === null || 'allowed' in match) return; // not an operation: /v1/openapi.json
  const spec = operations[match.name];
  if (spec.streaming) {
    // A stream read whole (it ended): each of its records, when it is a stream of records.
    const mediaType = mediaTypeOf(contentType);
    if (spec.records?.[mediaType] === undefined) return;
    if (typeof body !== 'string') checkRecord(match.name, mediaType, body);
    else for (const record of recordTexts(mediaType, body)) checkRecordText(match.name, mediaType, record);
    return;
  }
  if (!contentType.includes('application/json')) return;
  const checked = (spec.result as z.ZodType).safeParse(body);
  if (!checked.success)
    throw new ContractViolation(
      `${method} ${pathname} (${match.name}) answered a body its result schema refuses:\n${z.prettifyError(checked.error)}`,
    );
}

/** The same for a fetch Response whose text was read: parses it as the suites do, and checks. */
export function checkedBody<T>(method: string, url: string, res: Response, text: string): T {
  const contentType = res.headers.get('content-type') ?? '';
  const json = contentType.includes('json') && mediaTypeOf(contentType) !== NDJSON;
  const body = json && text !== '' ? (JSON.parse(text) as unknown) : text;
  checkAnswer(method, url, res.status, contentType, body);
  return body as T;
}

const NDJSON = 'application/x-ndjson';

const mediaTypeOf = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

/** The JSON texts of the records in a whole NDJSON or SSE body. */
function recordTexts(mediaType: string, text: string): string[] {
  if (mediaType === NDJSON) return text.split('\n').filter((line) => line !== '');
  return new SseParser().push(text).map((event) => event.data);
}

/**
 * Checks one record of a streaming operation (an NDJSON line, an SSE `data:`) against the schema
 * its contract gives for that media type (`records`), strictly; returns it typed by the caller.
 */
export function checkRecord<T>(name: OperationName, mediaType: string, record: unknown): T {
  const schema = (operations[name] as OperationSpec).records?.[mediaTypeOf(mediaType)];
  if (schema === undefined)
    throw new ContractViolation(`${name} has no record schema for ${mediaType} in the contract`);
  const checked = schema.safeParse(record);
  if (!checked.success)
    throw new ContractViolation(
      `${name} sent a ${mediaType} record its schema refuses:\n${z.prettifyError(checked.error)}\nrecord: ${JSON.stringify(record)}`,
    );
  return record as T;
}

/** The same for a record's JSON text; a text that is not JSON fails too. */
export function checkRecordText<T>(name: OperationName, mediaType: string, text: string): T {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    throw new ContractViolation(`${name} sent a ${mediaType} record that is not JSON: ${text.slice(0, 200)}`);
  }
  return checkRecord<T>(name, mediaType, record);
}
