import type { IncomingMessage } from 'node:http';
import { ProblemError } from '../errors';

export const MAX_BODY_BYTES = 1024 * 1024;

const isJsonType = (header: string | undefined) => {
  const type = (header ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
};

/** For operations that must be sent as JSON even when the body is empty (login, refresh...). */
export function requireJsonContentType(req: IncomingMessage): void {
  if (!isJsonType(req.headers['content-type'])) {
    throw new ProblemError(
      'unsupported_media_type',
      'send the request as JSON (Content-Type: application/json)',
    );
  }
}

/** Reads a JSON body. Bodies are small control messages, so anything larger is refused, not buffered. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const length = req.headers['content-length'];
  const hasBody = (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return undefined;
  if (!isJsonType(req.headers['content-type'])) {
    throw new ProblemError(
      'unsupported_media_type',
      'the request body must be JSON (Content-Type: application/json)',
    );
  }
  if (length !== undefined && Number(length) > MAX_BODY_BYTES) {
    throw new ProblemError('payload_too_large', `the request body must be at most ${MAX_BODY_BYTES} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      throw new ProblemError('payload_too_large', `the request body must be at most ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ProblemError('invalid_json', `the request body is not valid JSON: ${(err as Error).message}`);
  }
}
