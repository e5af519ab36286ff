import { useEffect, useRef } from 'react';
import { SNAPSHOT_MEDIA_TYPE } from '../../../src-shared/contract/snapshot-operations';
import { useSnapshots } from '../../state/snapshots';
import './snapshots.css';

/**
 * "Open snapshot…": the main process's file dialog in the desktop app; in a browser, for
 * administrators, a file chooser whose file is uploaded. The service's reason for refusing a file
 * is shown in its words.
 */
export function OpenSnapshot() {
  const { canOpen, opening, openError, openWithDialog, openFile, clearOpenError, loadPermissions } =
    useSnapshots();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    void loadPermissions();
  }, [loadPermissions]);
  const desktop = typeof window !== 'undefined' && window.skiffSnapshots !== undefined;
  return (
    <div className="snapshot-open">
      {canOpen && (
        <button
          type="button"
          onClick={() => (desktop ? void openWithDialog() : input.current?.click())}
          disabled={opening}
          title="Open a .skiff file as a read-only cluster (or drop one onto the window)"
        >
          {opening ? 'Opening snapshot…' : 'Open snapshot…'}
        </button>
      )}
      {canOpen && !desktop && (
        <input
          ref={input}
          type="file"
          hidden
          accept={`.skiff,${SNAPSHOT_MEDIA_TYPE}`}
          aria-label="Snapshot file"
          data-testid="snapshot-file-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            // Cleared so that choosing the same file again (after fixing it) fires again.
            e.target.value = '';
            if (file) void openFile(file);
          }}
        />
      )}
      {openError && (
        <div className="notice notice-error" role="alert" data-testid="snapshot-open-error">
          <p>{openError}</p>
          <button type="button" onClick={clearOpenError}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
