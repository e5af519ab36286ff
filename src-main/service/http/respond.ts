import type { ServerResponse } from 'node:http';
import type { ProblemError } from '../errors';

export const COMMON_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...COMMON_HEADERS,
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendProblem(
  res: ServerResponse,
  error: ProblemError,
  extraHeaders: Record<string, string> = {},
) {
  if (res.headersSent) {
    // A stream already started: the only honest signal left is to cut it.
    res.destroy(error);
    return;
  }
  const text = JSON.stringify(error.toProblem());
  res.writeHead(error.status, {
    ...COMMON_HEADERS,
    ...error.headers,
    ...extraHeaders,
    'Content-Type': 'application/problem+json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}
