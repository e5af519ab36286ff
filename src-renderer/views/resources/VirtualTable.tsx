import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type KeyboardEvent,
  type PointerEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { SortState } from '../../state/lists';
import { neededRem } from './fitColumns';
import type { Column } from './tableColumn';
import { cellTitle, VirtualRow } from './VirtualRow';
import './table.css';

const ROW_HEIGHT = 32;
// Rows beyond the viewport on each side; few, since each scroll renders in step (flushSync).
const OVERSCAN = 6;

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

// One collator for every comparison: `localeCompare` with options builds a new one per call,
// which made sorting 10,000 names on each live update take half a second.
const collator = new Intl.Collator(undefined, { numeric: true });

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
    return collator.compare(String(a.key), String(b.key)) * sign;
  });
  return keyed.map((k) => k.row);
}

/**
 * A virtualized grid: only the rows in view (plus a margin) are in the DOM, so ten thousand rows
 * scroll like ten. The row elements are recycled by position: the n-th row element shows the
 * n-th rendered row, and the body's top padding puts the first one in place. Scrolling thus
 * rewrites cells' text in rows that stay put, instead of building new rows or moving each row
 * (a row's own style change restyles every cell of its grid); either made each scrolled frame
 * restyle hundreds of cells. The active row and the selection are keyed by namespace/name, so
 * they and the scroll position survive a live refresh.
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
  const minWidthRem = useMemo(() => neededRem(columns), [columns]);

  useLayoutEffect(() => {
    if (headRef.current) setHeadHeight(headRef.current.offsetHeight);
  }, []);

  // Stable callbacks: a new function on every render makes the virtualizer re-measure all rows
  // (10,000 keys per frame while scrolling), which is what made big tables stutter. Item keys are
  // the default (the index): every row is ROW_HEIGHT tall, so a new list needs no re-measuring.
  const estimateSize = useCallback(() => ROW_HEIGHT, []);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: OVERSCAN,
    scrollMargin: headHeight,
  });

  // Clicks reach the latest props through a ref, so the rows' handler never changes and a parent
  // re-render (a poll, a new inline onOpen) does not re-render every row.
  const latest = useRef({ onOpen, rowKey });
  latest.current = { onOpen, rowKey };
  const pick = useCallback((row: T) => {
    setActiveKey(latest.current.rowKey(row));
    latest.current.onOpen(row);
  }, []);

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

  // A cell's tooltip is set when the pointer enters it (see VirtualRow for why not on render).
  const onPointerOver = (e: PointerEvent<HTMLTableSectionElement>) => {
    const td = (e.target as Element).closest('td');
    const index = Number(td?.parentElement?.getAttribute('aria-rowindex')) - 2;
    const row = rows[index];
    const column = td ? columns[td.cellIndex] : undefined;
    if (!td || !row || !column) return;
    const title = cellTitle(column, row);
    if (td.title !== title) td.title = title;
  };

  const items = virtualizer.getVirtualItems();
  const activeRendered = activeIndex >= 0 && items.some((v) => v.index === activeIndex);
  const rowId = (i: number) => `${idPrefix}-row-${i}`;
  const bodyHeight = virtualizer.getTotalSize() - headHeight;
  const offset = (items[0]?.start ?? headHeight) - headHeight;

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
        <tbody
          className="vt-body"
          // Border-box: the padding is part of the height, so the scroll range stays the same.
          style={{ height: bodyHeight, paddingTop: offset }}
          onPointerOver={onPointerOver}
        >
          {items.map((v, position) => {
            const row = rows[v.index]!;
            return (
              <VirtualRow
                // biome-ignore lint/suspicious/noArrayIndexKey: row elements are recycled by position on purpose (see above)
                key={position}
                row={row}
                index={v.index}
                id={rowId(v.index)}
                template={template}
                columns={columns}
                selected={selectedKey !== null && rowKey(row) === selectedKey}
                active={v.index === activeIndex}
                tint={props.rowClass?.(row) ?? ''}
                onPick={pick}
              />
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
