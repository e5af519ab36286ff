import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemaConverter } from './schemas';
import { BINARY, streamContent } from './streams';

/**
 * How a streaming answer reads in the API document (streams.ts), called directly with records of
 * the test's own, so every rule runs inside its test.
 */

const NDJSON = 'application/x-ndjson';
const SSE = 'text/event-stream';

// biome-ignore lint/suspicious/noExplicitAny: a generated JSON object, inspected by assertions only
type Json = any;

describe('streamContent', () => {
  it('an NDJSON or SSE answer without the schema of one record is refused, naming the operation and the media type', () => {
    const convert = schemaConverter();
    const line = z.object({ n: z.number() });
    for (const type of [NDJSON, SSE]) {
      expect(() => streamContent('watchTicks', ['text/plain', type], {}, convert), type).toThrow(
        new RegExp(`watchTicks .*${type.replace('/', '\\/')}`),
      );
      // The record of the other media type does not stand in for this one.
      const other = type === NDJSON ? SSE : NDJSON;
      expect(() => streamContent('watchTicks', [type], { [other]: line }, convert), type).toThrow(
        /watchTicks/,
      );
    }
  });

  it('an SSE stream of records with no named events is described as sending only unnamed `message` events', () => {
    const convert = schemaConverter();
    const tick = z.object({ at: z.string() }).meta({ id: 'SseTick' });
    const content: Json = streamContent('watchTicks', [SSE], { [SSE]: tick }, convert);
    const schema = content[SSE].schema;
    expect(schema).toMatchObject({
      type: 'string',
      'x-skiff-record': { $ref: '#/components/schemas/SseTick' },
    });
    const named = /Server-sent events named (.*?)\. /.exec(schema.description)?.[1];
    expect(named).toBe('`message`');
  });

  it('a record schema given for a media type other than NDJSON or SSE does not make that answer a stream of records', () => {
    const convert = schemaConverter();
    const tick = z.object({ at: z.string() }).meta({ id: 'PlainTick' });
    const content: Json = streamContent(
      'getTicks',
      ['text/plain', 'application/json', 'application/octet-stream', NDJSON],
      { 'text/plain': tick, 'application/json': tick, 'application/octet-stream': tick, [NDJSON]: tick },
      convert,
    );
    expect(content['text/plain'].schema).toEqual({
      type: 'string',
      description: expect.stringMatching(/Lines of text/),
    });
    expect(content['application/json'].schema).toEqual({ type: 'string' });
    expect(content['application/octet-stream'].schema).toEqual(BINARY);
    expect(content[NDJSON].schema).toMatchObject({ $ref: '#/components/schemas/PlainTick' });
  });
});
