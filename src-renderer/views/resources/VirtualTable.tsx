import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { SortState } from '../../state/lists';

export interface Column<T> {
  id: string;
  header: string;
  /** A CSS grid track, e.g. "minmax(14rem, 3fr)" or "6rem". */
  width: string;
  /** The sort key; also the cell text unless `render` is given. */
  value: (row: T) => string | number;
  render?: (row: T) => ReactNode;
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
export function sortRows<T>(rows: readonly T[], column: Column<T> | undefined, direction: 'asc' | 'desc'): T[] {
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
  const headRef = useRef<HTMLDivElement>(null);
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const [headHeight, setHeadHeight] = useState(34);
  const template = useMemo(() => columns.map((c) => c.width).join(' '), [columns]);

  useLayoutEffect(() => {
    if (headRef.current) setHeadHeight(headRef.current.offsetHeight);
  }, []);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    scrollMargin: headHeight,
    getItemKey: (i) => rowKey(rows[i]!),
  });

  const activeIndex = useMemo(() => {
    const key = activeKey ?? selectedKey;
    return key === null ? -1 : rows.findIndex((r) => rowKey(r) === key);
  }, [rows, activeKey, selectedKey, rowKey]);

  // An object opened elsewhere (a guidance link, the URL) is scrolled into view once.
  useEffect(() => {
    if (selectedKey === null) return;
    const i = rows.findIndex((r) => rowKey(r) === selectedKey);
    if (i >= 0) virtualizer.scrollToIndex(i, { align: 'auto' });
    // Only when the selection changes, not on every refresh: a refresh must not move the view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedKey]);

  const move = (to: number) => {
    if (rows.length === 0) return;
    const i = Math.max(0, Math.min(rows.length - 1, to));
    setActiveKey(rowKey(rows[i]!));
    virtualizer.scrollToIndex(i, { align: 'auto' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 320) / ROW_HEIGHT) - 1);
    const at = activeIndex < 0 ? -1 : activeIndex;
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(at + 1),
      ArrowUp: () => move(at - 1),
      PageDown: () => move(at + page),
      PageUp: () => move(at - page),
      Home: () => move(0),
      End: () => move(rows.length - 1),
      Enter: () => at >= 0 && onOpen(rows[at]!),
      ' ': () => at >= 0 && onOpen(rows[at]!),
    };
    const handler = keys[e.key];
    if (handler && e.target === e.currentTarget) {
      e.preventDefault();
      handler();
    }
  };

  const items = virtualizer.getVirtualItems();
  const activeRendered = activeIndex >= 0 && items.some((v) => v.index === activeIndex);
  const rowId = (i: number) => `${idPrefix}-row-${i}`;

  return (
    <div
      ref={scrollRef}
      className="vt"
      role="grid"
      aria-label={label}
      aria-rowcount={rows.length + 1}
      aria-colcount={columns.length}
      tabIndex={0}
      onKeyDown={onKeyDown}
      {...(activeRendered ? { 'aria-activedescendant': rowId(activeIndex) } : {})}
    >
      <div className="vt-head" role="rowgroup" ref={headRef}>
        <div className="vt-row" role="row" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
          {columns.map((c) => {
            const active = sort.column === c.id;
            const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';
            return (
              <div key={c.id} role="columnheader" aria-sort={ariaSort} className={c.align === 'end' ? 'end' : ''}>
                {c.sortable === false ? (
                  c.header
                ) : (
                  <button
                    type="button"
                    tabIndex={-1}
                    className="vt-sort"
                    onClick={() =>
                      onSort({ column: c.id, direction: active && sort.direction === 'asc' ? 'desc' : 'asc' })
                    }
                  >
                    {c.header}
                    <span aria-hidden="true" className="vt-arrow">
                      {active ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
                    </span>
                  </button>
                )}
              </div>
            );
          })}
        </div>
      </div>
      <div role="rowgroup" className="vt-body" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((v) => {
          const row = rows[v.index]!;
          const key = rowKey(row);
          const selected = key === selectedKey;
          return (
            <div
              key={v.key}
              id={rowId(v.index)}
              role="row"
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
                <div key={c.id} role="gridcell" className={c.align === 'end' ? 'end' : ''}>
                  {c.render ? c.render(row) : c.value(row)}
                </div>
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}
