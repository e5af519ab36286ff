/**
 * Test support for the contract fuzz: what an operation's zod schemas say of their parameters,
 * read through the wrappers (optional, default, nullable, readonly, a transform's pipe) that the
 * contract puts around them. Rules: only what the schemas and their documentation (`documented`
 * in params.ts) state is read; nothing here knows an operation by name.
 */
import type { z } from 'zod';
import type { OperationSpec } from '../../../src-shared/contract/define';

type Def = {
  type: string;
  checks?: Array<{ _zod: { def: Record<string, unknown> } }>;
  [key: string]: unknown;
};
export const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under optional, default, nullable and readonly, and a pipe's input (a transform's). */
export function unwrapped(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  if (def.type === 'pipe') return unwrapped(def.in as z.ZodType);
  if ('innerType' in def) return unwrapped(def.innerType as z.ZodType);
  return schema;
}

/** An object schema's fields, seen through the wrappers and refinements. */
export function fieldsOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const def = defOf(unwrapped(schema));
  return def.type === 'object' ? (def.shape as Record<string, z.ZodType>) : undefined;
}

/** The strings an enum or literal schema names, for near misses. */
export function namedValues(schema: z.ZodType): string[] {
  const def = defOf(unwrapped(schema));
  if (def.type === 'enum') return Object.values(def.entries as Record<string, string>);
  if (def.type === 'literal') return (def.values as unknown[]).map(String);
  return [];
}

/** A check's bound (`greater_than`, `less_than`, `min_length`, `max_length`) of a schema, if it has one. */
export function bound(schema: z.ZodType, check: string): number | undefined {
  for (const c of defOf(unwrapped(schema)).checks ?? []) {
    const d = c._zod.def;
    if (d.check === check) return (d.value ?? d.minimum ?? d.maximum) as number;
  }
  return undefined;
}

/** What the API document says of a URL parameter: its examples, minimum and maximum (params.ts). */
export function documentedParam(schema: z.ZodType): {
  examples?: string[];
  minimum?: number;
  maximum?: number;
} {
  const meta = (schema.meta() ?? {}) as { param?: Record<string, unknown>; examples?: string[] };
  return { ...(meta.examples ? { examples: meta.examples } : {}), ...(meta.param ?? {}) };
}

export const pathParamsOf = (spec: OperationSpec) => [...spec.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
