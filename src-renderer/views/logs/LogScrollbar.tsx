import { useRef } from 'react';

interface Props {
  top: number;
  total: number;
  screenRows: number;
  onScrollTo(row: number): void;
}

/**
 * The terminal holds one screen, so its own scrollbar cannot show where that screen is in a
 * million rows; this one does, and dragging it jumps anywhere in the view.
 */
export function LogScrollbar({ top, total, screenRows, onScrollTo }: Props) {
  const track = useRef<HTMLDivElement>(null);
  const span = Math.max(total, 1);
  const size = Math.min(1, screenRows / span);
  const thumbHeight = `${Math.max(4, size * 100)}%`;
  const thumbTop = `${Math.min(1 - size, top / span) * 100}%`;
  const rowAt = (clientY: number) => {
    const rect = track.current?.getBoundingClientRect();
    if (!rect || rect.height === 0) return 0;
    const f = Math.min(1, Math.max(0, (clientY - rect.top) / rect.height));
    return Math.round(f * total - screenRows / 2);
  };
  return (
    <div
      ref={track}
      className="log-scrollbar"
      role="scrollbar"
      aria-orientation="vertical"
      aria-controls="log-terminal"
      aria-valuemin={0}
      aria-valuemax={Math.max(0, total - screenRows)}
      aria-valuenow={top}
      tabIndex={-1}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        onScrollTo(rowAt(e.clientY));
      }}
      onPointerMove={(e) => {
        if (e.buttons === 1) onScrollTo(rowAt(e.clientY));
      }}
    >
      <div className="log-scrollbar-thumb" style={{ top: thumbTop, height: thumbHeight }} />
    </div>
  );
}
