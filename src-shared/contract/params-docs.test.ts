import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { RESOURCE_TYPES } from '../kube/kinds';
import { anyResourceType, booleanParam, namespacedResourceType } from './params';

/**
 * A parameter whose rules live in a transform carries the JSON Schema the API document shows for
 * it (`param` metadata, read by src-main/service/openapi/schemas.ts): what text it accepts.
 */
const documentation = (schema: z.ZodType) => schema.meta()?.param as Record<string, unknown> | undefined;

describe('documented parameters', () => {
  it('a boolean parameter is documented as a boolean', () => {
    expect(documentation(booleanParam('follow'))).toEqual({ type: 'boolean' });
  });

  it('a resource type is documented as text listing every kind it accepts', () => {
    const cases: Array<[z.ZodType, readonly string[]]> = [
      [anyResourceType(), RESOURCE_TYPES],
      [namespacedResourceType(), RESOURCE_TYPES.filter((t) => t !== 'node' && t !== 'namespace')],
    ];
    for (const [schema, accepted] of cases) {
      const doc = documentation(schema)!;
      expect(doc.type).toBe('string');
      const words = String(doc.description).split(/[\s,.:]+/);
      for (const kind of RESOURCE_TYPES) expect(words.includes(kind)).toBe(accepted.includes(kind));
    }
  });

  it("a resource type's documented pattern, read without flags as JSON Schema reads it, agrees with the schema", () => {
    for (const schema of [anyResourceType(), namespacedResourceType()]) {
      const doc = documentation(schema)!;
      const pattern = new RegExp(doc.pattern as string);
      for (const text of ['Pod', 'configmap', 'Certificate.Cert-Manager.IO', 'pod.', 'a..b', '-x', 'po d']) {
        expect(pattern.test(text), text).toBe(schema.safeParse(text).success);
      }
      expect(doc.maxLength).toBe(317);
    }
  });

  it("a resource type's documented examples are values it accepts", () => {
    for (const schema of [anyResourceType(), namespacedResourceType()]) {
      const examples = documentation(schema)!.examples as string[];
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) expect(schema.safeParse(example).success).toBe(true);
    }
  });
});
