// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Column } from './tableColumn';
import { sortRows, VirtualTable } from './VirtualTable';

interface Pod {
  name: string;
  restarts: number;
}

// Names whose numeric order differs from their character order, listed in neither.
const pods: Pod[] = [
  { name: 'web-10', restarts: 3 },
  { name: 'web-2', restarts: 0 },
  { name: 'api-1', restarts: 7 },
  { name: 'web-1', restarts: 1 },
];

const columns: Column<Pod>[] = [
  { id: 'name', header: 'Name', width: '10rem', value: (p) => p.name },
  { id: 'restarts', header: 'Restarts', width: '6rem', align: 'end', value: (p) => p.restarts },
];

describe('sortRows', () => {
  it('sorts names by their numbers, not character by character', () => {
    expect(sortRows(pods, columns[0], 'asc').map((p) => p.name)).toEqual([
      'api-1',
      'web-1',
      'web-2',
      'web-10',
    ]);
  });

  it('sorts numbers descending and leaves the input alone', () => {
    const before = pods.map((p) => p.name);
    expect(sortRows(pods, columns[1], 'desc').map((p) => p.restarts)).toEqual([7, 3, 1, 0]);
    expect(pods.map((p) => p.name)).toEqual(before);
  });
});

describe('VirtualTable', () => {
  // happy-dom lays nothing out: give the scroller a 10-row viewport so the virtualizer renders.
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(320);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  const many: Pod[] = Array.from({ length: 500 }, (_, i) => ({
    name: `pod-${(i * 7919) % 500}`,
    restarts: i,
  }));
  const view = (onOpen = vi.fn()) =>
    render(
      <VirtualTable
        label="Pods"
        idPrefix="t"
        rows={many}
        columns={columns}
        rowKey={(p) => p.name}
        sort={{ column: 'name', direction: 'asc' }}
        onSort={() => {}}
        selectedKey={null}
        onOpen={onOpen}
      />,
    );
  const bodyRows = () => [...document.querySelectorAll('tbody tr')];

  it('renders a window of rows, and scrolling rewrites the same row elements in place', () => {
    view();
    expect(screen.getByRole('grid').getAttribute('aria-rowcount')).toBe('501');
    const before = bodyRows();
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(40);
    expect(before[0]!.textContent).toBe(`${many[0]!.name}${many[0]!.restarts}`);

    const scroller = document.querySelector('.vt') as HTMLElement;
    act(() => {
      scroller.scrollTop = 200 * 32;
      fireEvent.scroll(scroller);
    });
    const after = bodyRows();
    const first = Number(after[0]!.getAttribute('aria-rowindex')) - 2;
    expect(first).toBeGreaterThan(150);
    // The rows in view are in order, one element per position, showing their own data.
    after.forEach((tr, i) => {
      expect(tr.getAttribute('aria-rowindex')).toBe(String(first + i + 2));
      expect(tr.textContent).toBe(`${many[first + i]!.name}${many[first + i]!.restarts}`);
    });
    // Recycled: the elements that were on screen are the ones now showing other rows.
    expect(after.filter((tr) => before.includes(tr)).length).toBe(Math.min(before.length, after.length));
    // The body's padding puts the first rendered row where it belongs.
    expect((document.querySelector('tbody') as HTMLElement).style.paddingTop).toBe(`${first * 32}px`);
  });

  it('sets a cell’s tooltip when the pointer reaches it, and opens the row clicked', () => {
    const onOpen = vi.fn();
    view(onOpen);
    const cell = bodyRows()[3]!.querySelector('td')!;
    expect(cell.hasAttribute('title')).toBe(false);
    fireEvent.pointerOver(cell);
    expect(cell.title).toBe(many[3]!.name);
    fireEvent.click(cell);
    expect(onOpen).toHaveBeenCalledWith(many[3]);
  });
});
