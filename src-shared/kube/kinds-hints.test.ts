import { describe, expect, it } from 'vitest';
import { RESOURCE_TYPES, resolveResourceType } from './kinds';

function refusal(input: string): { message: string; hint?: string } {
  const r = resolveResourceType(input);
  if (r.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return r;
}

describe('resolveResourceType: typo hints', () => {
  it('the closest type is suggested even when a farther one comes first in the table', () => {
    // "podd" is 2 edits from node (listed first) and 1 from pod.
    expect(refusal('podd').hint).toBe('did you mean pod?');
  });

  it('a farther type later in the table does not replace a closer one', () => {
    // "nodd" is 1 edit from node and 2 from job and pod, which come later.
    expect(refusal('nodd').hint).toBe('did you mean node?');
  });

  it('between equally close types the one listed first is suggested', () => {
    // "nod" is 1 edit from both node and pod.
    expect(refusal('nod').hint).toBe('did you mean node?');
    expect(refusal('Nod').hint).toBe('did you mean node?');
  });

  it('nothing is suggested for input more than two edits from every type', () => {
    expect(refusal('configmap').hint).toBeUndefined();
    expect(refusal('nodeeee').hint).toBeUndefined();
    expect(refusal('nodeee').hint).toBe('did you mean node?');
  });
});

describe('resolveResourceType: empty input', () => {
  it('empty or blank input is reported as missing, with the accepted types and no hint', () => {
    for (const input of ['', '   ']) {
      const r = refusal(input);
      expect(r.message).toMatch(/^missing resource type/);
      expect(r.message).not.toMatch(/unknown/);
      for (const t of RESOURCE_TYPES) expect(r.message).toContain(t);
      expect(r.hint).toBeUndefined();
    }
  });

  it('other unknown input is reported as unknown, quoting what was typed', () => {
    const r = refusal(' Ingress ');
    expect(r.message).toMatch(/^unknown resource type "Ingress"/);
    for (const t of RESOURCE_TYPES) expect(r.message).toContain(t);
  });
});
