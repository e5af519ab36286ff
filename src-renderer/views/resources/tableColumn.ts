/**
 * A column of the virtual table, in its own module so that the table and its rows both import it
 * and neither imports the other (no import cycles, type-only ones included: biome noImportCycles).
 */
import type { ReactNode } from 'react';

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
