import { z } from 'zod';
import { DOCS_PATH, OPENAPI_PATH } from '../../../src-shared/contract/api-docs';
import type { OperationSpec } from '../../../src-shared/contract/define';
import { type OperationName, operationNames, operations } from '../../../src-shared/contract/operations';
import { problem } from '../../../src-shared/contract/problem';
import { problemResponses } from './errors';
import { type JsonSchema, schemaConverter } from './schemas';
import { BINARY, streamContent } from './streams';

/**
 * The OpenAPI 3.1 document of the /v1 API, generated from the contract table: every path with its
 * parameters (patterns, ranges, defaults), bodies, success and problem+json answers, security and
 * headers. The service build writes it to out/service/openapi.json (vite.service.config.ts) and
 * the service serves that file; a test keeps the file equal to a fresh generation.
 */

export const API_VERSION = '0.1.0';

type Json = Record<string, unknown>;
type Spec = OperationSpec & {
  when?: { query: string; equals?: string };
  headerQuery?: Readonly<Record<string, string>>;
  /** Raw request bodies (a snapshot file): the media types accepted. */
  consumes?: readonly string[];
};

const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });

const PAGE_HEADERS = {
  'x-Total': header('Items in the whole list.', { type: 'integer', minimum: 0 }),
  'x-Limit': header('The page size used.', { type: 'integer', minimum: 1 }),
  'x-Offset': header('Position of the first item of this page.', { type: 'integer', minimum: 0 }),
  Link: header(
    'RFC 8288 links with rel first, prev (absent on the first page), next (absent on the last) and last; relative URLs that keep every other query parameter, and a cluster list’s `snapshot` token.',
  ),
};

function tagOf(path: string): string {
  if (path.endsWith('/logs')) return 'Logs';
  if (path.includes('/kubernetes-events')) return 'Events';
  if (path.includes('/kubernetes-proxy') || path.endsWith('/kinds')) return 'Resources';
  if (path.includes('/relations/') || path.endsWith('/counts') || path.endsWith('/search'))
    return 'Resources';
  if (path.includes('/snapshots')) return 'Snapshots';
  // What Skiff recorded of a cluster (issue 27): its changes, usage and diagnosis.
  if (/\/observability\/:clusterId\/(history|changes|usage|diagnosis)(\/|$)/.test(path)) return 'History';
  if (path.startsWith('/v1/auth') || path === '/v1/session') return 'Authentication';
  if (path.startsWith('/v1/guidance') || path.includes('/explanations/')) return 'Guidance';
  if (path.startsWith('/v1/health')) return 'Service';
  return 'Workspaces and settings';
}

function security(spec: Spec): Json[] {
  switch (spec.auth) {
    case 'public':
      return [];
    case 'session':
      return [{ bearerAuth: [] }];
    case 'credential':
      return [{ bearerAuth: [] }, { apiKeyAuth: [] }];
    case 'optional':
      return [{}, { bearerAuth: [] }, { apiKeyAuth: [] }];
  }
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

function parameters(spec: Spec, convert: ReturnType<typeof schemaConverter>): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [
    ['path', spec.params],
    ['query', spec.query],
  ] as const) {
    const json = convert.input(schema);
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((json.properties ?? {}) as Record<string, JsonSchema>)) {
      const { description, ...rest } = property;
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
      });
    }
  }
  for (const [headerName, queryName] of Object.entries(spec.headerQuery ?? {})) {
    out.push({
      name: headerName
        .replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())
        .replace(/-Id$/, '-ID'),
      in: 'header',
      required: false,
      description: `The same as the \`${queryName}\` query parameter; the header wins.`,
      schema: { type: 'string' },
    });
  }
  if (spec.method === 'GET' && !spec.streaming) {
    out.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description:
        'An ETag this answer carried before: 304 Not Modified, with no body, while nothing changed.',
      schema: { type: 'string' },
    });
  }
  return out;
}

function requestBody(spec: Spec, convert: ReturnType<typeof schemaConverter>): Json | undefined {
  if (spec.consumes && spec.consumes.length > 0) {
    return {
      required: true,
      content: Object.fromEntries(spec.consumes.map((t) => [t, { schema: BINARY }])),
    };
  }
  if (spec.body.safeParse(undefined).success && spec.body instanceof z.ZodUndefined) return undefined;
  return {
    required: !spec.body.safeParse(undefined).success,
    content: { 'application/json': { schema: convert.input(spec.body) } },
  };
}

function successResponse(
  name: OperationName,
  spec: Spec,
  convert: ReturnType<typeof schemaConverter>,
): [string, Json] {
  const status = String(spec.successStatus ?? 200);
  const headers: Json = {};
  if (spec.paginated) Object.assign(headers, PAGE_HEADERS);
  if (
    spec.paginated &&
    'includeExpired' in ((spec.query as z.ZodObject).shape ?? {}) &&
    spec.path.endsWith('/kubernetes-events')
  )
    headers['X-Expired-Rows'] = header(
      'With includeExpired=true: the 0-based positions on this page of the events the cluster no longer has, as ranges (3,10-12).',
    );
  if (spec.path.endsWith('/kinds'))
    headers['x-Discovery-Gaps'] = header(
      'The group versions whose discovery could not be read (an aggregated API that is down), comma-separated, e.g. metrics.k8s.io/v1beta1; absent when every group was read.',
    );
  if (spec.path.includes('/observability/') && !spec.streaming)
    headers['x-Stale-Since'] = header(
      'Present when the answer came from a cache whose watch is broken: the RFC 3339 time the data last matched the cluster.',
    );
  if (spec.method === 'GET' && !spec.streaming)
    headers.ETag = header('A strong validator of the body and headers.');
  if (status === '202') headers.Location = header('Where to poll the job this request started.');
  const content = spec.streaming
    ? streamContent(name, spec.produces ?? ['text/plain'], spec.records ?? {}, convert)
    : { 'application/json': { schema: convert.output(spec.result) } };
  return [
    status,
    {
      description: spec.summary,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content,
    },
  ];
}

function operationObject(name: OperationName, spec: Spec, convert: ReturnType<typeof schemaConverter>): Json {
  const [status, success] = successResponse(name, spec, convert);
  const responses: Json = { [status]: success };
  if (spec.method === 'GET' && !spec.streaming)
    responses['304'] = { description: 'Not Modified: the If-None-Match ETag still holds.' };
  Object.assign(responses, problemResponses(name, spec));
  const body = requestBody(spec, convert);
  return {
    operationId: name,
    summary: spec.summary,
    tags: [tagOf(spec.path)],
    security: security(spec),
    parameters: parameters(spec, convert),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/**
 * Two operations on one method and path (the event list and its watch, told apart by a query
 * value) are one OpenAPI operation: parameters joined, answers joined by media type.
 */
function merged(first: Json, second: Json, secondName: string): Json {
  const params = [...(first.parameters as Json[])];
  for (const p of second.parameters as Json[])
    if (!params.some((q) => q.name === p.name && q.in === p.in)) params.push(p);
  const responses = structuredClone(first.responses) as Record<string, Json>;
  for (const [status, answer] of Object.entries(second.responses as Record<string, Json>)) {
    const held = responses[status];
    if (!held) responses[status] = answer;
    else if (answer.content)
      held.content = { ...(answer.content as Json), ...((held.content as Json) ?? {}) };
  }
  return {
    ...first,
    description: `Also ${secondName}: ${String(second.summary)}`,
    parameters: params,
    responses,
  };
}

export function buildOpenApiDocument(): Json {
  const convert = schemaConverter();
  const paths: Record<string, Record<string, Json>> = {};
  // An operation answering only for a query value comes second into a shared path.
  const ordered = [...operationNames].sort(
    (a, b) =>
      Number((operations[a] as Spec).when !== undefined) - Number((operations[b] as Spec).when !== undefined),
  );
  for (const name of ordered) {
    const spec = operations[name] as Spec;
    const path = openApiPath(spec.path);
    const method = spec.method.toLowerCase();
    paths[path] ??= {};
    const item = paths[path];
    const op = operationObject(name, spec, convert);
    item[method] = item[method] ? merged(item[method], op, name) : op;
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'openApiDocument',
      summary: 'This document: the API in OpenAPI 3.1, generated from the contract at build time.',
      tags: ['Service'],
      security: [],
      responses: {
        '200': {
          description: 'The OpenAPI document.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  };
  paths[DOCS_PATH] = {
    get: {
      operationId: 'apiReference',
      summary: 'The API reference page, rendered from this document; works offline.',
      tags: ['Service'],
      security: [],
      responses: {
        '200': { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } },
      },
    },
  };
  convert.output(problem);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Skiff API',
      version: API_VERSION,
      description:
        'The local /v1 API of Skiff: cluster resources, events, logs, snapshots, sessions and tokens. Errors are RFC 9457 problem+json with a stable `code`. Lists are paged with `limit`/`offset` and answer `x-Total`, `x-Limit`, `x-Offset` and `Link`. JSON GETs carry a strong `ETag` and honour `If-None-Match`.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    tags: [
      'Resources',
      'Events',
      'Logs',
      'Snapshots',
      'History',
      'Workspaces and settings',
      'Authentication',
      'Guidance',
      'Service',
    ].map((name) => ({ name })),
    paths,
    components: {
      schemas: convert.components(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An access token from POST /v1/auth/login or /v1/auth/refresh.',
        },
        apiKeyAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description:
            'An API key from POST /v1/auth/api-keys; cluster endpoints only (403 api_key_not_allowed elsewhere).',
        },
      },
    },
  };
}
