import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { documented } from '../../../src-shared/contract/params';
import { schemaConverter } from './schemas';

/**
 * The zod → JSON Schema conversion the API document is built with (schemas.ts), called directly:
 * each test makes its own converter and schemas, so every rule runs inside its test.
 */

describe('schemaConverter', () => {
  it('a parameter documented by its own JSON Schema keeps the zod description unless that JSON Schema gives one', () => {
    const convert = schemaConverter();
    const json = convert.input(
      z.object({
        fromZod: documented(z.string(), { type: 'integer', minimum: 1 }).describe('Told in zod.'),
        fromParam: documented(z.string(), {
          type: 'integer',
          description: 'Told by the parameter.',
        }).describe('Told in zod.'),
        untold: documented(z.string(), { type: 'boolean' }),
      }),
    );
    // Strict: a description key holding `undefined` is a difference too.
    expect(json.properties).toStrictEqual({
      fromZod: { type: 'integer', minimum: 1, description: 'Told in zod.' },
      fromParam: { type: 'integer', description: 'Told by the parameter.' },
      untold: { type: 'boolean' },
    });
  });

  it('a null in a schema (a default of null) comes through unchanged', () => {
    const convert = schemaConverter();
    const json = convert.input(z.object({ cursor: z.string().nullable().default(null) }));
    expect(json.properties).toEqual({ cursor: { type: ['string', 'null'], default: null } });
  });

  it('only a $ref into the schema’s own definitions becomes a component reference', () => {
    const convert = schemaConverter();
    const Target = z.object({ x: z.string() }).meta({ id: 'RefTarget' });
    const json = convert.output(
      z.object({
        // A property that happens to be named $ref is a property, its schema converted as any other.
        $ref: Target,
        // A string that looks like a reference but is a value, not a $ref.
        looksLikeRef: z.literal('#/$defs/RefTarget'),
        // A reference outside the document is kept as written.
        external: z.string().meta({ $ref: 'https://example.org/spec.json' }),
      }),
    );
    expect(json.properties).toEqual({
      $ref: { $ref: '#/components/schemas/RefTarget' },
      looksLikeRef: { type: 'string', const: '#/$defs/RefTarget' },
      external: { type: 'string', $ref: 'https://example.org/spec.json' },
    });
    expect(Object.keys(convert.components())).toEqual(['RefTarget']);
  });

  it('a schema name given to two schemas that read differently is refused, naming the schema', () => {
    const convert = schemaConverter();
    const first = z.object({ a: z.string() }).meta({ id: 'TwiceNamed' });
    const same = z.object({ a: z.string() }).meta({ id: 'TwiceNamed' });
    const other = z.object({ a: z.number() }).meta({ id: 'TwiceNamed' });
    convert.output(z.object({ one: first }));
    // The same shape met again under its name is the same component.
    expect(() => convert.output(z.object({ two: same }))).not.toThrow();
    expect(() => convert.output(z.object({ three: other }))).toThrow(/\bTwiceNamed\b/);
    expect(convert.components().TwiceNamed).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    });
  });

  it('an answer’s object is closed (no other properties) while a request’s object stays open', () => {
    const convert = schemaConverter();
    const shape = z.object({ name: z.string(), size: z.number().default(0) });
    expect(convert.output(shape)).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, size: { type: 'number', default: 0 } },
      required: ['name', 'size'],
      additionalProperties: false,
    });
    const input = convert.input(shape);
    expect(input.additionalProperties).toBeUndefined();
    expect(input.required).toEqual(['name']);
  });

  it('components are listed by name in alphabetical order, whatever order they were met in', () => {
    const convert = schemaConverter();
    for (const id of ['Mango', 'Apple', 'Zucchini', 'Kiwi'])
      convert.output(z.object({ [id.toLowerCase()]: z.string() }).meta({ id }));
    expect(Object.keys(convert.components())).toEqual(['Apple', 'Kiwi', 'Mango', 'Zucchini']);
  });
});
