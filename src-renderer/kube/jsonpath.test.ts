import { describe, expect, it } from 'vitest';
import { compileJsonPath, evaluateSteps, jsonPathValues, MAX_PATH_LENGTH, MAX_RESULTS } from './jsonpath';

/** The printer-column JSONPath forms CRDs use, and the refusals for the ones it does not read. */

const cert = {
  metadata: {
    name: 'grafana-tls',
    creationTimestamp: '2024-01-01T00:00:00Z',
    labels: { 'app.kubernetes.io/name': 'grafana' },
  },
  spec: {
    secretName: 'grafana-tls',
    issuerRef: { name: 'letsencrypt' },
    dnsNames: ['a.example', 'b.example'],
  },
  status: {
    conditions: [
      { type: 'Ready', status: 'False', reason: 'DoesNotExist', message: 'no secret', observedGeneration: 1 },
      { type: 'Issuing', status: 'False', reason: 'Failed', message: 'rate limited', observedGeneration: 2 },
    ],
    replicas: 3,
    empty: null,
  },
};

const values = (path: string, root: unknown = cert) => {
  const r = jsonPathValues(path, root);
  if (!r.ok) throw new Error(r.error);
  return r.values;
};
const error = (path: string) => {
  const r = compileJsonPath(path);
  return r.ok ? undefined : r.error;
};

describe('jsonPath: the paths CRDs declare', () => {
  it('reads dotted fields', () => {
    expect(values('.spec.secretName')).toEqual(['grafana-tls']);
    expect(values('.spec.issuerRef.name')).toEqual(['letsencrypt']);
    expect(values('.status.replicas')).toEqual([3]);
  });

  it('accepts kubectl’s braces, a leading $ and a path without its leading dot', () => {
    expect(values('{.spec.secretName}')).toEqual(['grafana-tls']);
    expect(values('{ .spec.secretName }')).toEqual(['grafana-tls']);
    expect(values('$.spec.secretName')).toEqual(['grafana-tls']);
    expect(values('spec.secretName')).toEqual(['grafana-tls']);
    expect(values('  .spec.secretName  ')).toEqual(['grafana-tls']);
  });

  it('indexes arrays from either end and slices them', () => {
    expect(values('.spec.dnsNames[0]')).toEqual(['a.example']);
    expect(values('.spec.dnsNames[1]')).toEqual(['b.example']);
    expect(values('.spec.dnsNames[-1]')).toEqual(['b.example']);
    expect(values('.spec.dnsNames[-2]')).toEqual(['a.example']);
    expect(values('.spec.dnsNames[ 0 ]')).toEqual(['a.example']);
    expect(values('.spec.dnsNames[2]')).toEqual([]);
    expect(values('.spec.dnsNames[-3]')).toEqual([]);
    expect(values('.spec.dnsNames[0:1]')).toEqual(['a.example']);
    expect(values('.spec.dnsNames[1:]')).toEqual(['b.example']);
    expect(values('.spec.dnsNames[:1]')).toEqual(['a.example']);
    expect(values('.spec.dnsNames[:]')).toEqual(['a.example', 'b.example']);
    expect(values('.spec.secretName[0]')).toEqual([]);
    expect(values('.spec.secretName[0:1]')).toEqual([]);
  });

  it('expands wildcards over arrays and objects', () => {
    expect(values('.spec.dnsNames[*]')).toEqual(['a.example', 'b.example']);
    expect(values('.status.conditions[*].type')).toEqual(['Ready', 'Issuing']);
    expect(values('.spec.issuerRef.*')).toEqual(['letsencrypt']);
    expect(values('.spec.issuerRef[*]')).toEqual(['letsencrypt']);
    expect(values('.spec.secretName[*]')).toEqual([]);
  });

  it('filters by equality, with or without spaces and either quote', () => {
    expect(values('.status.conditions[?(@.type=="Ready")].status')).toEqual(['False']);
    expect(values('.status.conditions[?(@.type == "Ready")].status')).toEqual(['False']);
    expect(values(".status.conditions[?(@.type=='Issuing')].reason")).toEqual(['Failed']);
    expect(values('.status.conditions[?(@.type != "Ready")].type')).toEqual(['Issuing']);
    expect(values('.status.conditions[?(@.type == "Gone")].status')).toEqual([]);
    expect(values('.spec.issuerRef[?(@.name == "letsencrypt")]')).toEqual([]);
  });

  it('compares numbers and strings in order, never a number with a string', () => {
    expect(values('.status.conditions[?(@.observedGeneration > 1)].type')).toEqual(['Issuing']);
    expect(values('.status.conditions[?(@.observedGeneration >= 1)].type')).toEqual(['Ready', 'Issuing']);
    expect(values('.status.conditions[?(@.observedGeneration < 2)].type')).toEqual(['Ready']);
    expect(values('.status.conditions[?(@.observedGeneration <= 2)].type')).toEqual(['Ready', 'Issuing']);
    expect(values('.status.conditions[?(@.observedGeneration <= 1)].type')).toEqual(['Ready']);
    expect(values('.status.conditions[?(@.observedGeneration >= 2)].type')).toEqual(['Issuing']);
    expect(values('.status.conditions[?(@.type > "J")].type')).toEqual(['Ready']);
    expect(values('.status.conditions[?(@.type < "J")].type')).toEqual(['Issuing']);
    expect(values('.status.conditions[?(@.observedGeneration > "1")].type')).toEqual([]);
    expect(values('.status.conditions[?(@.observedGeneration == "1")].type')).toEqual([]);
    expect(values('.status.conditions[?(@.observedGeneration == 1)].type')).toEqual(['Ready']);
  });

  it('reads booleans and null as literals, and a bare @.path as presence', () => {
    const root = {
      items: [
        { on: true, n: 'a' },
        { on: false, n: 'b', extra: null },
        { n: 'c', deep: { x: 1 } },
      ],
    };
    expect(values('.items[?(@.on == true)].n', root)).toEqual(['a']);
    expect(values('.items[?(@.on == false)].n', root)).toEqual(['b']);
    expect(values('.items[?(@.extra == null)].n', root)).toEqual(['b']);
    expect(values('.items[?(@.on)].n', root)).toEqual(['a', 'b']);
    expect(values('.items[?(@.deep.x)].n', root)).toEqual(['c']);
    expect(values('.items[?(@.n == "c")].deep.x', root)).toEqual([1]);
    expect(values('.items[?(@)].n', root)).toEqual(['a', 'b', 'c']);
    expect(values('.items[?(@.n == "a)]")].n', { items: [{ n: 'a)]' }] })).toEqual(['a)]']);
  });

  it('strips braces only as a pair, and scans a filter from its own parenthesis', () => {
    expect(values('{.a', { '{': { a: 1 }, a: 2 })).toEqual([1]);
    expect(values('.a}', { 'a}': 1, a: 2 })).toEqual([1]);
    expect(values('.a([?(@.b == 1)].c', { 'a(': [{ b: 1, c: 2 }] })).toEqual([2]);
    expect(values(".a[?(@.n == 'x)]')].v", { a: [{ n: 'x)]', v: 1 }] })).toEqual([1]);
    expect(values('.a[?( @.n == 1 )].v', { a: [{ n: 1, v: 3 }] })).toEqual([3]);
    expect(error('.a[?((@.b == 1))]')).toBe('unsupported filter ((@.b == 1))');
  });

  it('reads quoted literals whole, and numbers as numbers', () => {
    const root = {
      a: [
        { s: '', v: 1 },
        { s: '5', n: 11, v: 2 },
        { s: 'x', v: 3 },
      ],
    };
    expect(values('.a[?(@.s == "")].v', root)).toEqual([1]);
    expect(values('.a[?(@.n == 11)].v', root)).toEqual([2]);
    expect(values('.a[?(@.n == 101)].v', root)).toEqual([]);
    // A numeric string is not a number: no ordering between them.
    expect(values('.a[?(@.s > 1)].v', root)).toEqual([]);
    expect(values('.a[?(@.s < 9)].v', root)).toEqual([]);
    expect(error('.a[?(@.b == "a"b)]')).toBe('unsupported literal "a"b');
  });

  it('reads names with dots in brackets or escaped', () => {
    expect(values(".metadata.labels['app.kubernetes.io/name']")).toEqual(['grafana']);
    expect(values('.metadata.labels["app.kubernetes.io/name"]')).toEqual(['grafana']);
    expect(values('.metadata.labels.app\\.kubernetes\\.io/name')).toEqual(['grafana']);
    // A backslash before anything else is part of the name.
    expect(values('.a\\b', { 'a\\b': 1 })).toEqual([1]);
    expect(values("['spec']['secretName']")).toEqual(['grafana-tls']);
  });

  it('finds null values but not missing ones, and reads only own properties', () => {
    expect(values('.status.empty')).toEqual([null]);
    expect(values('.status.missing')).toEqual([]);
    expect(values('.status.missing.deeper')).toEqual([]);
    expect(values('.constructor')).toEqual([]);
    expect(values('.__proto__')).toEqual([]);
    expect(values('.spec.dnsNames.length')).toEqual([]);
    expect(values('.spec', { spec: undefined })).toEqual([]);
    expect(values('.a', null)).toEqual([]);
  });

  it('stops at MAX_RESULTS values', () => {
    const big = { items: Array.from({ length: MAX_RESULTS + 5 }, (_, i) => ({ i })) };
    expect(values('.items[*]', big)).toHaveLength(MAX_RESULTS);
    expect(values('.items[*].i', big)).toHaveLength(MAX_RESULTS);
    const nested = { a: [Array.from({ length: MAX_RESULTS }, (_, i) => i), [1, 2]] };
    expect(values('.a[*][*]', nested)).toHaveLength(MAX_RESULTS);
    expect(values('.a[*][*]', { a: [[1], [2, 3]] })).toEqual([1, 2, 3]);
  });

  it('compiles to steps once, to be evaluated on every row', () => {
    const compiled = compileJsonPath('.status.conditions[?(@.type == "Ready")].status');
    expect(compiled).toEqual({
      ok: true,
      steps: [
        { type: 'field', name: 'status' },
        { type: 'field', name: 'conditions' },
        { type: 'filter', path: [{ type: 'field', name: 'type' }], op: '==', value: 'Ready' },
        { type: 'field', name: 'status' },
      ],
    });
    if (compiled.ok) expect(evaluateSteps(compiled.steps, cert)).toEqual(['False']);
    expect(compileJsonPath('.a[?(@.n == 2.5)]')).toEqual({
      ok: true,
      steps: [
        { type: 'field', name: 'a' },
        { type: 'filter', path: [{ type: 'field', name: 'n' }], op: '==', value: 2.5 },
      ],
    });
    expect(compileJsonPath('.a[?(@.n)]')).toEqual({
      ok: true,
      steps: [
        { type: 'field', name: 'a' },
        { type: 'filter', path: [{ type: 'field', name: 'n' }], op: undefined, value: null },
      ],
    });
    expect(compileJsonPath('[1:]')).toEqual({
      ok: true,
      steps: [{ type: 'slice', start: 1, end: undefined }],
    });
    expect(compileJsonPath('[:-1]')).toEqual({
      ok: true,
      steps: [{ type: 'slice', start: undefined, end: -1 }],
    });
  });
});

describe('jsonPath: what it refuses, with the reason', () => {
  it('refuses what it does not read instead of guessing', () => {
    expect(error('')).toBe('empty path');
    expect(error('{}')).toBe('empty path');
    expect(error('$')).toBe('empty path');
    expect(error('..name')).toBe('recursive descent (..) is not supported');
    expect(error('.a..b')).toBe('recursive descent (..) is not supported');
    expect(error('.a.')).toBe('a name is missing at 3');
    expect(error('.a[0,1]')).toBe('unsupported subscript [0,1]');
    expect(error('.a[x]')).toBe('unsupported subscript [x]');
    expect(error('.a[0')).toBe('unterminated [ at 2');
    expect(error(".a['b")).toBe('unterminated name at 2');
    expect(error(".a['b'x")).toBe('unterminated name at 2');
    expect(error('.a[?@.b]')).toBe('a filter needs parentheses at 2');
    expect(error('.a[?(@.b == "x"')).toBe('unterminated filter at 2');
    expect(error('.a[?(@.b == "x")x')).toBe('a filter must end with )] at 15');
    expect(error('.a[?(b == "x")]')).toBe('unsupported filter (b == "x")');
    expect(error('.a[?(  b == "x" )]')).toBe('unsupported filter (b == "x")');
    expect(error('.a[?(@.b == x)]')).toBe('unsupported literal x');
    expect(error('.a[?(@.b == "x)]')).toBe('unterminated filter at 2');
    expect(error('.a[?(@.b =~ "x")]')).toBe('unsupported filter (@.b =~ "x")');
    expect(error('.a b')).toBeUndefined();
    expect(error('.a]b')).toBeUndefined();
    expect(error('.a[0]x')).toBe('unexpected "x" at 5');
    expect(error('x'.repeat(MAX_PATH_LENGTH + 1))).toBe(`longer than ${MAX_PATH_LENGTH} characters`);
    expect(error('.'.concat('x'.repeat(MAX_PATH_LENGTH - 1)))).toBeUndefined();
  });

  it('answers the reason through jsonPathValues too', () => {
    expect(jsonPathValues('..x', cert)).toEqual({
      ok: false,
      error: 'recursive descent (..) is not supported',
    });
  });
});
