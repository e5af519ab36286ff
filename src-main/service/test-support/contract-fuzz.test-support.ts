/**
 * Test support for the contract fuzz (contract-fuzz.it.test.ts): hostile requests derived from an
 * operation's own zod schemas. Rules:
 * - every parameter comes from the contract table: path parameters from the path, query
 *   parameters and body fields from the schemas' shapes (contract-fuzz-schemas.test-support.ts), so a new
 *   operation or parameter is fuzzed without a line here;
 * - a request starts from a valid one (values the caller gives per parameter name) and makes one
 *   to three of its parts hostile (contract-fuzz-values.test-support.ts), so each hostile value reaches the
 *   parser that owns it.
 */
import fc from 'fast-check';
import type { OperationSpec } from '../../../src-shared/contract/define';
import { fieldsOf, pathParamsOf } from './contract-fuzz-schemas.test-support';
import {
  encodeText,
  hostileBody,
  hostileContentType,
  hostileHeader,
  hostileJson,
  hostileParam,
  hostileValue,
  utf8,
} from './contract-fuzz-values.test-support';

/** A valid request of one operation: values by parameter name, and a valid body. */
export interface Baseline {
  params: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, string>>;
  /** JSON to send; absent: no body. A file upload's body is `upload` instead. */
  body?: Readonly<Record<string, unknown>>;
  upload?: { bytes: Uint8Array<ArrayBuffer>; contentType: string };
}

/** One request as it goes on the wire. */
export interface FuzzRequest {
  method: string;
  /** Path and query, encoded. */
  target: string;
  body?: { bytes: Uint8Array<ArrayBuffer>; contentType: string };
  /** Request headers an operation reads as parameters (`headerQuery`: Last-Event-ID). */
  headers?: Record<string, string>;
}

type Part =
  | { at: 'path'; name: string; value: string }
  | { at: 'query'; name: string; values: string[] }
  | { at: 'header'; name: string; value: string }
  | { at: 'field'; name: string; value: unknown }
  | { at: 'body'; bytes: Uint8Array<ArrayBuffer>; contentType: string };

/** A name no operation takes: an unknown query parameter, an unknown body field. */
export const UNKNOWN_NAME = 'fuzzUnknown';

/**
 * One part of a request that can be made hostile: a path or query parameter, a header read as
 * one, a body field, the body.
 */
export interface HostilePart {
  label: string;
  part: fc.Arbitrary<Part>;
}

/** Every part of `spec`'s requests, each with the hostile values it can take. */
export function hostileParts(spec: OperationSpec, base: Baseline): HostilePart[] {
  const pathSchemas = fieldsOf(spec.params) ?? {};
  const query = fieldsOf(spec.query) ?? {};
  const fields = fieldsOf(spec.body);
  return [
    ...pathParamsOf(spec).map((name) => ({
      label: `path ${name}`,
      part: hostileParam(pathSchemas[name]).map((value): Part => ({ at: 'path', name, value })),
    })),
    ...[...Object.keys(query), UNKNOWN_NAME].map((name) => ({
      label: `query ${name}`,
      // Two values: the parameter repeated.
      part: fc
        .array(hostileParam(query[name]), { minLength: 1, maxLength: 2 })
        .map((values): Part => ({ at: 'query', name, values })),
    })),
    ...Object.entries(spec.headerQuery ?? {}).map(([name, param]) => ({
      label: `header ${name}`,
      part: hostileHeader(query[param]).map((value): Part => ({ at: 'header', name, value })),
    })),
    ...(fields && base.body
      ? [...Object.keys(fields), UNKNOWN_NAME].map((name) => ({
          label: `body field ${name}`,
          // None: the field left out.
          part: fc
            .option(fields[name] ? hostileValue(fields[name]) : hostileJson)
            .map((value): Part => ({ at: 'field', name, value: value ?? undefined })),
        }))
      : []),
    ...(spec.method !== 'GET'
      ? [
          {
            label: 'body',
            part: fc
              .tuple(hostileBody, hostileContentType)
              .map(([bytes, contentType]): Part => ({ at: 'body', bytes, contentType })),
          },
        ]
      : []),
  ];
}

/** Requests with one to three of the parts hostile at once. */
export function mixedRequests(spec: OperationSpec, base: Baseline): fc.Arbitrary<FuzzRequest> {
  const parts = hostileParts(spec, base);
  return fc
    .uniqueArray(fc.nat(parts.length - 1), { minLength: 1, maxLength: Math.min(3, parts.length) })
    .chain((chosen) => fc.tuple(...chosen.map((i) => parts[i]!.part)))
    .map((chosen) => buildRequest(spec, base, chosen));
}

/** Requests with this one part hostile: its value reaches the parser that owns it. */
export const singlePartRequests = (spec: OperationSpec, base: Baseline, part: HostilePart) =>
  part.part.map((p) => buildRequest(spec, base, [p]));

function buildRequest(spec: OperationSpec, base: Baseline, parts: Part[]): FuzzRequest {
  const path = new Map(Object.entries(base.params).map(([k, v]) => [k, encodeText(v)]));
  const query = new Map(Object.entries(base.query ?? {}).map(([k, v]) => [k, [encodeText(v)]]));
  const body: Record<string, unknown> | undefined = base.body ? { ...base.body } : undefined;
  // A hostile whole body replaces the JSON or the upload.
  let whole: FuzzRequest['body'];
  const headers: Record<string, string> = {};
  for (const part of parts) {
    if (part.at === 'path') path.set(part.name, part.value);
    else if (part.at === 'header') headers[part.name] = part.value;
    else if (part.at === 'query') query.set(encodeText(part.name), part.values);
    else if (part.at === 'body') whole = { bytes: part.bytes, contentType: part.contentType };
    else if (body && part.value === undefined) delete body[part.name];
    else if (body) body[part.name] = part.value;
  }
  const pathText = spec.path.replace(/:(\w+)/g, (_, name: string) => path.get(name) ?? '');
  const queryText = [...query].flatMap(([k, vs]) => vs.map((v) => `${k}=${v}`)).join('&');
  const sent =
    whole ?? (body ? { bytes: utf8(JSON.stringify(body)), contentType: 'application/json' } : base.upload);
  return {
    method: spec.method,
    target: queryText ? `${pathText}?${queryText}` : pathText,
    ...(sent ? { body: sent } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
  };
}
