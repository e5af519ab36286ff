import { describe, expect, it } from 'vitest';
import { fitColumns, NARROW_NAME_WIDTH } from './fitColumns';

// The pod list's tracks, listed out of priority order on purpose (the display order).
const pods = [
  { id: 'name', width: 'minmax(14rem, 3fr)' },
  { id: 'namespace', width: 'minmax(8rem, 1fr)' },
  { id: 'status', width: 'minmax(9rem, 1.2fr)' },
  { id: 'ready', width: '6rem' },
  { id: 'restarts', width: '7.5rem' },
  { id: 'node', width: 'minmax(8rem, 1fr)' },
  { id: 'ip', width: '8rem' },
  { id: 'age', width: '5.5rem' },
];
const ids = (cols: { id: string }[]) => cols.map((c) => c.id);

describe('fitColumns', () => {
  it('keeps every column when there is room', () => {
    expect(ids(fitColumns(pods, 80))).toEqual(ids(pods));
  });

  it('drops the kind columns from the end, then the namespace, and keeps age, in display order', () => {
    // name 15.2 + status 10.2 + age 6.7 + namespace 9.2 + ready 7.2 + restarts 8.7 = 57.2rem
    expect(ids(fitColumns(pods, 57.2))).toEqual(['name', 'namespace', 'status', 'ready', 'restarts', 'age']);
    expect(ids(fitColumns(pods, 57.1))).toEqual(['name', 'namespace', 'status', 'ready', 'age']);
    expect(ids(fitColumns(pods, 41.3))).toEqual(['name', 'namespace', 'status', 'age']);
    // Beside the detail pane: name, status and age (the pane's header names the namespace).
    expect(ids(fitColumns(pods, 41.2))).toEqual(['name', 'status', 'age']);
    expect(ids(fitColumns(pods, 32.1))).toEqual(['name', 'status', 'age']);
    expect(ids(fitColumns(pods, 32))).toEqual(['name', 'status']);
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

  it('never drops name or status, and narrows the name only when both would not fit', () => {
    const wide = fitColumns(pods, 26);
    expect(ids(wide)).toEqual(['name', 'status']);
    expect(wide[0]!.width).toBe('minmax(14rem, 3fr)');
    const narrow = fitColumns(pods, 20);
    expect(ids(narrow)).toEqual(['name', 'status']);
    expect(narrow[0]!.width).toBe(NARROW_NAME_WIDTH);
    expect(ids(fitColumns(pods, 5))).toEqual(['name', 'status']);
  });

  it('takes "ready" as the status of kinds without one, else their first own column', () => {
    const deployments = [
      { id: 'name', width: 'minmax(14rem, 3fr)' },
      { id: 'available', width: '6rem' },
      { id: 'ready', width: '6rem' },
      { id: 'age', width: '5.5rem' },
    ];
    expect(ids(fitColumns(deployments, 23))).toEqual(['name', 'ready']);
    const services = [
      { id: 'name', width: 'minmax(14rem, 3fr)' },
      { id: 'type', width: '7.5rem' },
      { id: 'ports', width: 'minmax(8rem, 1.5fr)' },
      { id: 'age', width: '5.5rem' },
    ];
    expect(ids(fitColumns(services, 24))).toEqual(['name', 'type']);
  });
});
