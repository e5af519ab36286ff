import { describe, expect, it } from 'vitest';
import { fitColumns, NARROW_NAME_WIDTH } from './fitColumns';

// The pod list's tracks, listed out of priority order on purpose (the display order).
const pods = [
  { id: 'name', width: 'minmax(14rem, 3fr)' },
  { id: 'namespace', width: 'minmax(8rem, 1fr)' },
  { id: 'status', width: 'minmax(9rem, 1.2fr)' },
  { id: 'ready', width: '4.5rem' },
  { id: 'restarts', width: 'minmax(5.5rem, 7.5rem)' },
  { id: 'node', width: 'minmax(8rem, 1fr)' },
  { id: 'ip', width: '8rem' },
  { id: 'age', width: '4.5rem' },
];
const ids = (cols: { id: string }[]) => cols.map((c) => c.id);
const nameWidth = (cols: { id: string; width: string }[]) => cols.find((c) => c.id === 'name')?.width;

// Each column costs its minimum (its cell's padding is inside it): name 14 (narrow 8), status 9,
// age 4.5, ready 4.5, restarts 5.5, namespace 8, node 8, ip 8. By priority, the running totals
// are 23, 27.5, 32, 37.5, 45.5, 53.5, 61.5 with the full name; 6 less with the narrow one.
describe('fitColumns', () => {
  it('keeps every column, the name at its full width, when there is room', () => {
    const all = fitColumns(pods, 61.55);
    expect(ids(all)).toEqual(ids(pods));
    expect(nameWidth(all)).toBe('minmax(14rem, 3fr)');
  });

  it('narrows the name when that keeps a column more, and only then', () => {
    const narrow = fitColumns(pods, 61.45);
    expect(ids(narrow)).toEqual(ids(pods));
    expect(nameWidth(narrow)).toBe(NARROW_NAME_WIDTH);
    // Both keep name, status, age, ready and restarts: the name keeps its width.
    expect(nameWidth(fitColumns(pods, 37.55))).toBe('minmax(14rem, 3fr)');
  });

  it('drops the kind columns from the end, then the namespace, then Ready and Restarts, and keeps age', () => {
    expect(ids(fitColumns(pods, 53.55))).toEqual([
      'name',
      'namespace',
      'status',
      'ready',
      'restarts',
      'node',
      'age',
    ]);
    expect(ids(fitColumns(pods, 45.55))).toEqual(['name', 'namespace', 'status', 'ready', 'restarts', 'age']);
    // Beside the detail pane at 1280 px: Ready, Restarts and Age stay before the namespace.
    expect(ids(fitColumns(pods, 39.45))).toEqual(['name', 'status', 'ready', 'restarts', 'age']);
    expect(nameWidth(fitColumns(pods, 37.45))).toBe(NARROW_NAME_WIDTH);
    expect(ids(fitColumns(pods, 31.55))).toEqual(['name', 'status', 'ready', 'restarts', 'age']);
    expect(ids(fitColumns(pods, 31.45))).toEqual(['name', 'status', 'ready', 'age']);
    expect(ids(fitColumns(pods, 26.05))).toEqual(['name', 'status', 'ready', 'age']);
    expect(ids(fitColumns(pods, 25.95))).toEqual(['name', 'status', 'age']);
    expect(ids(fitColumns(pods, 21.55))).toEqual(['name', 'status', 'age']);
    expect(ids(fitColumns(pods, 21.45))).toEqual(['name', 'status']);
  });

  it('shows age on every list of the nine at a common width (the list beside a 17rem sidebar in 1280px)', () => {
    const deployments = [
      { id: 'name', width: 'minmax(14rem, 3fr)' },
      { id: 'namespace', width: 'minmax(8rem, 1fr)' },
      { id: 'ready', width: '6rem' },
      { id: 'updated', width: '6rem' },
      { id: 'available', width: '6rem' },
      { id: 'strategy', width: '8rem' },
      { id: 'age', width: '5.5rem' },
    ];
    for (const cols of [pods, deployments]) expect(ids(fitColumns(cols, 60))).toContain('age');
  });

  it('never drops name or status, and narrows the name when both would not fit', () => {
    const two = pods.filter((c) => c.id === 'name' || c.id === 'status');
    const wide = fitColumns(two, 23.05);
    expect(ids(wide)).toEqual(['name', 'status']);
    expect(nameWidth(wide)).toBe('minmax(14rem, 3fr)');
    const narrow = fitColumns(two, 22.95);
    expect(ids(narrow)).toEqual(['name', 'status']);
    expect(nameWidth(narrow)).toBe(NARROW_NAME_WIDTH);
    expect(ids(fitColumns(pods, 5))).toEqual(['name', 'status']);
  });

  it('takes "ready" as the status of kinds without one, else their first own column', () => {
    const deployments = [
      { id: 'name', width: 'minmax(14rem, 3fr)' },
      { id: 'available', width: '6rem' },
      { id: 'ready', width: '6rem' },
      { id: 'age', width: '5.5rem' },
    ];
    expect(ids(fitColumns(deployments, 19.45))).toEqual(['name', 'ready']);
    const services = [
      { id: 'name', width: 'minmax(14rem, 3fr)' },
      { id: 'type', width: '7.5rem' },
      { id: 'ports', width: 'minmax(8rem, 1.5fr)' },
      { id: 'age', width: '5.5rem' },
    ];
    expect(ids(fitColumns(services, 20.95))).toEqual(['name', 'type']);
  });

  it('answers the columns as they are for a list without a name column', () => {
    const cols = [{ id: 'a', width: '5rem' }];
    expect(fitColumns(cols, 1)).toEqual(cols);
  });
});
