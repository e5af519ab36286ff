import { describe, expect, it } from 'vitest';
import type { PrinterColumn } from '../../../kube/kind-catalog';
import { cellOf, compileColumns, repeatsShared } from './printer-cells';

/** CRD printer columns as cells: which columns show, and each type's formatting. */

const col = (name: string, jsonPath: string, type = 'string', priority = 0): PrinterColumn => ({
  name,
  type,
  jsonPath,
  priority,
});

const NOW = Date.parse('2024-05-10T12:00:00Z');
const obj = {
  metadata: { name: 'grafana-tls', namespace: 'monitoring', creationTimestamp: '2024-05-10T10:00:00Z' },
  spec: { secretName: 'grafana-tls', replicas: 3, ratio: 0.5, paused: false, when: '2024-05-09T12:00:00Z' },
  status: {
    conditions: [{ type: 'Ready', status: 'False' }],
    nested: { a: [1, 2] },
    big: 'x'.repeat(300),
    bigObject: { text: 'y'.repeat(300) },
    nothing: null,
  },
};

const cell = (c: PrinterColumn) => {
  const [compiled] = compileColumns([c]);
  if (!compiled) throw new Error('column left out');
  return cellOf(compiled, obj, NOW);
};

describe('compileColumns', () => {
  it('keeps the default columns, in order, with ids of their own', () => {
    const cols = compileColumns([
      col('Ready', '.status.conditions[?(@.type == "Ready")].status'),
      col('Issuer', '.spec.issuerRef.name', 'string', 1),
      col('Secret', '.spec.secretName'),
      col('Age', '.metadata.creationTimestamp', 'date'),
      col('NAME', '.metadata.name'),
      col('Namespace', '.metadata.namespace'),
    ]);
    expect(cols.map((c) => [c.id, c.column.name])).toEqual([
      ['pc:0', 'Ready'],
      ['pc:2', 'Secret'],
    ]);
    expect(compileColumns(undefined)).toEqual([]);
  });

  it('keeps a column whose path cannot be read, with the reason', () => {
    const [c] = compileColumns([col('Deep', '..name')]);
    expect(c).toMatchObject({ id: 'pc:0', steps: null, error: 'recursive descent (..) is not supported' });
    expect(cellOf(c!, obj, NOW)).toEqual({ text: '', sort: '' });
  });
});

describe('repeatsShared', () => {
  it('spots the creation time however it is written', () => {
    expect(repeatsShared(col('Created', '.metadata.creationTimestamp', 'date'))).toBe(true);
    expect(repeatsShared(col('Created', '{.metadata.creationTimestamp}', 'date'))).toBe(true);
    expect(repeatsShared(col('Created', ' $.metadata.creationTimestamp ', 'date'))).toBe(true);
    expect(repeatsShared(col('Created', ' {.metadata.creationTimestamp} ', 'date'))).toBe(true);
    expect(repeatsShared(col('Created', '.metadata.creationTimestampX', 'date'))).toBe(false);
    expect(repeatsShared(col('Created', '.spec.metadata.creationTimestamp', 'date'))).toBe(false);
    expect(repeatsShared(col('Name', '.spec.other'))).toBe(true);
    expect(repeatsShared(col('namespace', '.spec.other'))).toBe(true);
    expect(repeatsShared(col('Names', '.spec.other'))).toBe(false);
  });
});

describe('cellOf', () => {
  it('shows the first value a filter finds', () => {
    expect(cell(col('Ready', '.status.conditions[?(@.type == "Ready")].status'))).toEqual({
      text: 'False',
      sort: 'False',
    });
    expect(cell(col('First', '.status.nested.a[*]', 'integer'))).toEqual({ text: '1', sort: 1 });
  });

  it('formats by the declared type and leaves a mismatch empty', () => {
    expect(cell(col('Replicas', '.spec.replicas', 'integer'))).toEqual({ text: '3', sort: 3 });
    expect(cell(col('Ratio', '.spec.ratio', 'integer'))).toEqual({ text: '', sort: '' });
    expect(cell(col('Ratio', '.spec.ratio', 'number'))).toEqual({ text: '0.5', sort: 0.5 });
    expect(cell(col('Secret', '.spec.secretName', 'number'))).toEqual({ text: '', sort: '' });
    expect(cell(col('Paused', '.spec.paused', 'boolean'))).toEqual({ text: 'false', sort: 'false' });
    expect(cell(col('Paused', '.spec.secretName', 'boolean'))).toEqual({ text: '', sort: '' });
    expect(cell(col('Replicas', '.spec.replicas'))).toEqual({ text: '3', sort: '3' });
    expect(cell(col('Paused', '.spec.paused'))).toEqual({ text: 'false', sort: 'false' });
  });

  it('shows a date as an age, sorted youngest first', () => {
    expect(cell(col('When', '.spec.when', 'date'))).toEqual({
      text: '24h',
      sort: -Date.parse('2024-05-09T12:00:00Z'),
    });
    expect(cell(col('When', '.spec.secretName', 'date'))).toEqual({
      text: 'grafana-tls',
      sort: 'grafana-tls',
    });
    expect(cell(col('When', '.spec.replicas', 'date'))).toEqual({ text: '3', sort: '3' });
  });

  it('shows objects as JSON, cut to a readable length', () => {
    expect(cell(col('Nested', '.status.nested'))).toEqual({ text: '{"a":[1,2]}', sort: '{"a":[1,2]}' });
    const long = cell(col('Big', '.status.bigObject')).text;
    expect(long).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
    expect(long.startsWith('{"text":"yyy')).toBe(true);
    // A string is shown whole: the table cuts it with an ellipsis and its tooltip has all of it.
    expect(cell(col('Big', '.status.big')).text).toHaveLength(300);
    expect(cell(col('Exact', '.x')).text).toBe('');
    expect(cellOf(compileColumns([col('J', '.j')])[0]!, { j: { t: 'z'.repeat(193) } }).text).toHaveLength(
      200,
    );
    expect(cellOf(compileColumns([col('J', '.j')])[0]!, { j: { t: 'z'.repeat(192) } }).text).toBe(
      `{"t":"${'z'.repeat(192)}"}`,
    );
  });

  it('leaves missing and null values empty', () => {
    expect(cell(col('Missing', '.spec.none'))).toEqual({ text: '', sort: '' });
    expect(cell(col('Null', '.status.nothing'))).toEqual({ text: '', sort: '' });
  });
});
