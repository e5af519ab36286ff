import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { SortState } from '../../state/lists';

export interface Column<T> {
  id: string;
  header: string;
  /** A CSS grid track, e.g. "minmax(14rem, 3fr)" or "6rem". */
  width: string;
  /** The sort key; also the cell text unless `render` is given. */
  value: (row: T) => string | number;
  render?: (row: T) => ReactNode;
  /** Tooltip for cells that may be cut off; defaults to the text of unrendered cells. */
  title?: (row: T) => string;
  align?: 'end';
  /** A column whose values are all alike is not worth sorting by (e.g. a link). */
  sortable?: boolean;
}

const ROW_HEIGHT = 32;

interface Props<T> {
  label: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  sort: SortState;
  onSort: (sort: SortState) => void;
  selectedKey: string | null;
  onOpen: (row: T) => void;
  /** A class per row, e.g. to tint failing pods. */
  rowClass?: (row: T) => string | undefined;
  idPrefix: string;
}

/** Sorted copy; precomputes each row's key once so sorting 10,000 rows stays cheap. */
export function sortRows<T>(
  rows: readonly T[],
  column: Column<T> | undefined,
  direction: 'asc' | 'desc',
): T[] {
  if (!column) return [...rows];
  const keyed = rows.map((row) => ({ row, key: column.value(row) }));
  const sign = direction === 'asc' ? 1 : -1;
  keyed.sort((a, b) => {
    if (typeof a.key === 'number' && typeof b.key === 'number') return (a.key - b.key) * sign;
    return String(a.key).localeCompare(String(b.key), undefined, { numeric: true }) * sign;
  });
  return keyed.map((k) => k.row);
}

/**
 * A virtualized grid: only the rows in view (plus a margin) are in the DOM, so ten thousand rows
 * scroll like ten. Rows are keyed by object identity (namespace/name), so a live refresh updates
 * cells in place, and the active row, the selection and the scroll position survive it.
 * Keyboard: arrows, Page Up/Down, Home/End move; Enter or Space opens.
 */
export function VirtualTable<T>(props: Props<T>) {
  const { rows, columns, rowKey, sort, onSort, selectedKey, onOpen, label, idPrefix } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLTableSectionElement>(null);
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const [headHeight, setHeadHeight] = useState(34);
  const template = useMemo(() => columns.map((c) => c.width).join(' '), [columns]);
  // Columns shrink to their minimum widths, then the grid scrolls sideways instead of squeezing further.
  const minWidthRem = useMemo(
    () =>
      columns.reduce((sum, c) => sum + Number(/([\d.]+)rem/.exec(c.width)?.[1] ?? 6), 0) +
      1.2 * columns.length,
    [columns],
  );

  useLayoutEffect(() => {
    if (headRef.current) setHeadHeight(headRef.current.offsetHeight);
  }, []);

  // Stable callbacks: a new function on every render makes the virtualizer re-measure all rows
  // (10,000 keys per frame while scrolling), which is what made big tables stutter.
  const estimateSize = useCallback(() => ROW_HEIGHT, []);
  const getItemKey = useCallback((i: number) => rowKey(rows[i]!), [rows, rowKey]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: 12,
    scrollMargin: headHeight,
    getItemKey,
  });

  const activeIndex = useMemo(() => {
    const key = activeKey ?? selectedKey;
    return key === null ? -1 : rows.findIndex((r) => rowKey(r) === key);
  }, [rows, activeKey, selectedKey, rowKey]);

  // An object opened elsewhere (a guidance link, the URL) is scrolled into view once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the selection changes; a refresh must not move the view
  useEffect(() => {
    if (selectedKey === null) return;
    const i = rows.findIndex((r) => rowKey(r) === selectedKey);
    if (i >= 0) virtualizer.scrollToIndex(i, { align: 'auto' });
  }, [selectedKey]);

  const move = (to: number) => {
    if (rows.length === 0) return;
    const i = Math.max(0, Math.min(rows.length - 1, to));
    setActiveKey(rowKey(rows[i]!));
    virtualizer.scrollToIndex(i, { align: 'auto' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTableElement>) => {
    if (e.target !== e.currentTarget) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 320) / ROW_HEIGHT) - 1);
    const at = activeIndex;
    switch (e.key) {
      case 'ArrowDown':
        move(at + 1);
        break;
      case 'ArrowUp':
        move(at - 1);
        break;
      case 'PageDown':
        move(at + page);
        break;
      case 'PageUp':
        move(at - page);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(rows.length - 1);
        break;
      case 'Enter':
      case ' ':
        if (at >= 0) onOpen(rows[at]!);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const items = virtualizer.getVirtualItems();
  const activeRendered = activeIndex >= 0 && items.some((v) => v.index === activeIndex);
  const rowId = (i: number) => `${idPrefix}-row-${i}`;

  return (
    <div ref={scrollRef} className="vt">
      <table
        className="vt-table"
        style={{ minWidth: `${minWidthRem}rem` }}
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: ARIA allows role=grid on a table; it adds keyboard navigation to its semantics
        role="grid"
        aria-label={label}
        aria-rowcount={rows.length + 1}
        aria-colcount={columns.length}
        tabIndex={0}
        onKeyDown={onKeyDown}
        {...(activeRendered ? { 'aria-activedescendant': rowId(activeIndex) } : {})}
      >
        <thead className="vt-head" ref={headRef}>
          <tr className="vt-row" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
            {columns.map((c) => {
              const active = sort.column === c.id;
              const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';
              return (
                <th key={c.id} scope="col" aria-sort={ariaSort} className={c.align === 'end' ? 'end' : ''}>
                  {c.sortable === false ? (
                    c.header
                  ) : (
                    <button
                      type="button"
                      className="vt-sort"
                      onClick={() =>
                        onSort({
                          column: c.id,
                          direction: active && sort.direction === 'asc' ? 'desc' : 'asc',
                        })
                      }
                    >
                      {c.header}
                      <span aria-hidden="true" className="vt-arrow">
                        {active ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
                      </span>
                    </button>
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="vt-body" style={{ height: virtualizer.getTotalSize() - headHeight }}>
          {items.map((v) => {
            const row = rows[v.index]!;
            const key = rowKey(row);
            const selected = key === selectedKey;
            return (
              <tr
                key={v.key}
                id={rowId(v.index)}
                aria-rowindex={v.index + 2}
                aria-selected={selected}
                className={`vt-row ${selected ? 'selected' : ''} ${v.index === activeIndex ? 'active' : ''} ${props.rowClass?.(row) ?? ''}`}
                style={{ gridTemplateColumns: template, transform: `translateY(${v.start - headHeight}px)` }}
                onClick={() => {
                  setActiveKey(key);
                  onOpen(row);
                }}
              >
                {columns.map((c) => (
                  <td
                    key={c.id}
                    className={c.align === 'end' ? 'end' : ''}
                    title={c.title?.(row) ?? (c.render ? undefined : String(c.value(row)))}
                  >
                    {c.render ? c.render(row) : c.value(row)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
