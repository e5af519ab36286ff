import { useEffect, useState } from 'react';
import { useSnapshots } from '../../state/snapshots';
import './snapshots.css';

const carriesFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;

/**
 * A `.skiff` file dropped anywhere on the window opens it. Every file drop is taken here, also
 * where opening is not allowed, so a stray drop never navigates the window away from the app.
 */
export function SnapshotDropTarget() {
  const [over, setOver] = useState(false);
  const canOpen = useSnapshots((s) => s.canOpen);
  useEffect(() => {
    // dragenter/dragleave fire for every child crossed; counting them tells when the window is left.
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth++;
      setOver(true);
    };
    const overWindow = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = canOpen ? 'copy' : 'none';
    };
    const leave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const drop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      const file = e.dataTransfer?.files[0];
      if (!file) return;
      if (canOpen) void useSnapshots.getState().openFile(file);
      else
        useSnapshots.setState({
          openError: `${file.name} was not opened: only an administrator can open a snapshot.`,
        });
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', overWindow);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', overWindow);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [canOpen]);
  if (!over || !canOpen) return null;
  return (
    <div className="snapshot-drop" aria-hidden="true">
      <p>Drop a .skiff file to open the snapshot</p>
    </div>
  );
}
