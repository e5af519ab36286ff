import type { z } from 'zod';
import { eventWatchRecord, SSE_EVENT_NAMES } from '../../../src-shared/contract/event-watch-operations';
import type { schemaConverter } from './schemas';

/**
 * A streaming answer in the API document, by media type. A stream of JSON records is described by
 * one record's schema (the contract's `records`): an NDJSON body by the schema of a line (OpenAPI
 * 3.1 has no item schema for sequential media types), an SSE body as the string it is, with its
 * event names and its record's schema linked by `x-skiff-record`.
 */

type Json = Record<string, unknown>;

export const BINARY = { type: 'string', contentMediaType: 'application/octet-stream' };

const NDJSON_TYPE = 'application/x-ndjson';
const SSE_TYPE = 'text/event-stream';

/** The `event:` names a record schema is sent under over SSE, beside the unnamed `message`. */
const SSE_EVENTS = new Map<z.ZodType, Readonly<Record<string, string>>>([
  [eventWatchRecord, SSE_EVENT_NAMES],
]);

function sseDescription(record: z.ZodType): string {
  const named = Object.entries(SSE_EVENTS.get(record) ?? {}).map(([type, event]) => `\`${event}\` (${type})`);
  const names = named.length > 0 ? `\`message\` (no \`event:\` line) and ${named.join(', ')}` : '`message`';
  return `Server-sent events named ${names}. Each event's \`data:\` is one JSON record of the schema in \`x-skiff-record\`; an \`id:\` is the Last-Event-ID to resume from; comment lines (\`: heartbeat\`) only keep the connection alive.`;
}

export function streamContent(
  name: string,
  produces: readonly string[],
  records: Readonly<Record<string, z.ZodType>>,
  convert: ReturnType<typeof schemaConverter>,
): Json {
  return Object.fromEntries(
    produces.map((type) => {
      const record = records[type];
      if ((type === NDJSON_TYPE || type === SSE_TYPE) && !record)
        throw new Error(`${name} answers ${type}: its contract must give the schema of one record`);
      if (record && type === NDJSON_TYPE) {
        const description =
          'NDJSON: one JSON document per line, each a record of this schema, every line ended by a newline.';
        return [type, { schema: { ...convert.output(record), description } }];
      }
      if (record && type === SSE_TYPE) {
        const schema = { type: 'string', description: sseDescription(record) };
        return [type, { schema: { ...schema, 'x-skiff-record': convert.output(record) } }];
      }
      if (type === 'text/plain')
        return [type, { schema: { type: 'string', description: 'Lines of text, each ended by a newline.' } }];
      const text = type.startsWith('text/') || type.includes('json');
      return [type, { schema: text ? { type: 'string' } : BINARY }];
    }),
  );
}
