import { memo, type ReactElement } from 'react';
import type { Column } from './tableColumn';

interface RowProps<T> {
  row: T;
  index: number;
  id: string;
  template: string;
  columns: readonly Column<T>[];
  selected: boolean;
  active: boolean;
  /** The kind's tint (e.g. failing pods), already resolved to a class name. */
  tint: string;
  /** Stable across renders, so a row whose data did not change skips rendering. */
  onPick: (row: T) => void;
}

/**
 * One row of the virtual table, in flow below the ones before it: its own style never changes
 * while scrolling. Memoised: a poll that leaves a row's object alone, a change of selection or
 * a scroll within the rendered range re-renders only the rows it touches.
 * Cells carry no title here: Chromium's own `abbr[title]` rule makes every title change restyle
 * its cell, hundreds per scrolled frame; `cellTitle` sets it when the pointer arrives instead.
 */
function VirtualRowImpl<T>({
  row,
  index,
  id,
  template,
  columns,
  selected,
  active,
  tint,
  onPick,
}: RowProps<T>) {
  return (
    <tr
      id={id}
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`vt-row${selected ? ' selected' : ''}${active ? ' active' : ''}${tint ? ` ${tint}` : ''}`}
      style={{ gridTemplateColumns: template }}
      onClick={() => onPick(row)}
    >
      {columns.map((c) => (
        <td key={c.id} className={c.align === 'end' ? 'end' : undefined}>
          {c.render ? c.render(row) : c.value(row)}
        </td>
      ))}
    </tr>
  );
}

export const VirtualRow = memo(VirtualRowImpl) as <T>(props: RowProps<T>) => ReactElement;

/** The tooltip of a cell that may be cut off: the column's, or the text of an unrendered cell. */
export function cellTitle<T>(column: Column<T>, row: T): string {
  return column.title?.(row) ?? (column.render ? '' : String(column.value(row)));
}
