import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from './Dialog';
import { problemText } from './Problem';

export interface AdminColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** A tooltip for the cell, e.g. the exact time behind a friendly one. */
  title?: (row: T) => string | undefined;
}

/** A row action that changes something for good, so it asks first. */
export interface AdminAction<T> {
  /** The button's text in the row, e.g. "Revoke". */
  label: string;
  /** Rows the action does not apply to show no button. */
  available?: (row: T) => boolean;
  title: string;
  confirmLabel: string;
  /** What the dialog says about this row and what will happen to it. */
  body: (row: T) => ReactNode;
  /**
   * Does it. The dialog shows "Working…" meanwhile and closes when this resolves; when it throws,
   * the dialog stays open and says why, so the person can retry or cancel.
   */
  run: (row: T) => Promise<void>;
}

type RowAttributes = { className?: string } & Record<`data-${string}`, string>;

/**
 * The settings and security tables: labelled columns, and at most one destructive action per row
 * behind a confirmation. The action column's header is for screen readers only.
 */
export function AdminTable<T>({
  label,
  className,
  columns,
  rows,
  rowKey,
  rowAttributes,
  action,
}: {
  /** The table's accessible name. */
  label: string;
  /** Added after "table". */
  className?: string;
  columns: ReadonlyArray<AdminColumn<T>>;
  rows: readonly T[];
  rowKey: (row: T) => string;
  rowAttributes?: (row: T) => RowAttributes;
  action?: AdminAction<T>;
}) {
  const [pending, setPending] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setPending(null);
    setError(null);
  };
  const confirm = async () => {
    if (pending === null || !action) return;
    setBusy(true);
    setError(null);
    try {
      await action.run(pending);
      setPending(null);
    } catch (err) {
      setError(problemText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <table className={className ? `table ${className}` : 'table'} aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col">
                {c.header}
              </th>
            ))}
            {action && (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowAttributes?.(row)}>
              {columns.map((c) => (
                <td key={c.header} title={c.title?.(row)}>
                  {c.cell(row)}
                </td>
              ))}
              {action && (
                <td>
                  {(action.available?.(row) ?? true) && (
                    <button type="button" className="danger" onClick={() => setPending(row)}>
                      {action.label}
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {action && (
        <ConfirmDialog
          open={pending !== null}
          title={action.title}
          confirmLabel={action.confirmLabel}
          busy={busy}
          onConfirm={() => void confirm()}
          onCancel={close}
        >
          {pending !== null && action.body(pending)}
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
