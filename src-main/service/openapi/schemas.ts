import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

/**
 * zod → JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) with zod's own converter. Schemas
 * named with `.meta({ id })` become components, referred to by `$ref`; a URL parameter whose rules
 * live in a transform carries its JSON Schema as `param` metadata (params.ts `documented`), which
 * replaces what the converter can see (a plain string).
 */

export type JsonSchema = Record<string, unknown>;

const PREFIX = '#/components/schemas/';

function override(ctx: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }) {
  const meta = z.globalRegistry.get(ctx.zodSchema as z.ZodType) as Record<string, unknown> | undefined;
  const param = meta?.param as JsonSchema | undefined;
  delete ctx.jsonSchema.param;
  if (!param) return;
  const description = ctx.jsonSchema.description;
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  Object.assign(ctx.jsonSchema, param);
  if (description !== undefined && param.description === undefined) ctx.jsonSchema.description = description;
}

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')
        ? PREFIX + value.slice('#/$defs/'.length)
        : rewriteRefs(value);
  }
  return out;
}

export function schemaConverter() {
  const components: Record<string, JsonSchema> = {};
  const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const json = z.toJSONSchema(schema, { io, override, unrepresentable: 'throw' }) as JsonSchema;
    const { $schema: _dialect, $defs, ...root } = rewriteRefs(json) as JsonSchema;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      const held = components[id];
      if (held && !isDeepStrictEqual(held, def))
        throw new Error(`schema ${id} reads differently in two places of the contract`);
      components[id] = def;
    }
    // A named schema at the root comes back as a $ref to its component.
    return root;
  };
  return {
    input: (schema: z.ZodType) => convert(schema, 'input'),
    output: (schema: z.ZodType) => convert(schema, 'output'),
    components: () => Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
  };
}
