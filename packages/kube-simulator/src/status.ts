/**
 * metav1.Status error bodies and the few HTTP helpers every handler shares. Reasons and message
 * formats match the apiserver's k8s.io/apimachinery/pkg/api/errors constructors.
 */

import type { ServerResponse } from 'node:http';
import type { ResourceDef } from './resources';

interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  causes?: { reason?: string; message: string; field?: string }[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { continue?: string; resourceVersion?: string };
  status: 'Failure';
  message: string;
  reason: string;
  details?: StatusDetails;
  code: number;
}

export function status(code: number, reason: string, message: string, details?: StatusDetails): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  };
}

function qualified(def: Pick<ResourceDef, 'resource' | 'group'>): string {
  return def.group ? `${def.resource}.${def.group}` : def.resource;
}

export function notFound(def: Pick<ResourceDef, 'resource' | 'group'>, name: string): Status {
  return status(404, 'NotFound', `${qualified(def)} "${name}" not found`, {
    name,
    ...(def.group ? { group: def.group } : {}),
    kind: def.resource,
  });
}

export function pathNotFound(): Status {
  return status(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function badRequest(message: string): Status {
  return status(400, 'BadRequest', message);
}

export function invalid(kind: string, name: string, causes: { field: string; message: string }[]): Status {
  const summary = causes.map((c) => `${c.field}: ${c.message}`).join(', ');
  return status(422, 'Invalid', `${kind} "${name}" is invalid: ${summary}`, {
    name,
    kind,
    causes: causes.map((c) => ({ reason: 'FieldValueInvalid', message: c.message, field: c.field })),
  });
}

export function expired(message: string): Status {
  return status(410, 'Expired', message);
}

export function methodNotAllowed(method: string, def: Pick<ResourceDef, 'resource' | 'group'>): Status {
  return status(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`, {
    kind: def.resource,
    ...(def.group ? { group: def.group } : {}),
    causes: [{ reason: 'UnexpectedServerResponse', message: `${method} is not supported by this simulator` }],
  });
}

export function unauthorized(): Status {
  return status(401, 'Unauthorized', 'Unauthorized');
}

export function serviceUnavailable(message: string): Status {
  return status(503, 'ServiceUnavailable', message);
}

/** Returned by response helpers so route handlers can `return send…(…)` in every branch. */
export type Sent = 'sent';
export const SENT: Sent = 'sent';

export function sendJson(res: ServerResponse, code: number, body: unknown): Sent {
  return sendRaw(res, code, JSON.stringify(body));
}

/** Sends an already-serialised JSON body (lists build theirs piecewise). */
export function sendRaw(
  res: ServerResponse,
  code: number,
  json: string,
  headers: Record<string, string> = {},
): Sent {
  if (res.headersSent || res.destroyed) return SENT;
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Content-Length': Buffer.byteLength(json),
    ...headers,
  });
  res.end(json);
  return SENT;
}

export function sendStatus(res: ServerResponse, s: Status): Sent {
  return sendJson(res, s.code, s);
}
