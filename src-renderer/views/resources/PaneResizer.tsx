import { type KeyboardEvent, type PointerEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { LIST_MIN_REM, PANE_MIN_REM, usePaneWidth } from './paneWidth';

const STEP = 16;
const BIG_STEP = 64;

const remPx = () => Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;

/** The pane's current width and its bounds, read from the grid as laid out. */
function measure(area: HTMLElement, handle: HTMLElement) {
  const rem = remPx();
  const min = PANE_MIN_REM * rem;
  const max = Math.max(min, area.clientWidth - handle.offsetWidth - LIST_MIN_REM * rem);
  const pane = handle.nextElementSibling as HTMLElement | null;
  return { min, max, now: pane ? pane.getBoundingClientRect().width : min };
}

/**
 * The handle between the list and the detail pane (the WAI-ARIA window splitter): drag it, or
 * focus it and use the arrow keys (Shift for bigger steps), Home and End; a double click or Enter
 * goes back to the default width. While dragging, the width is written to the area's style
 * directly, so the list and the pane re-render only when the drag ends.
 */
export function PaneResizer({ area }: { area: RefObject<HTMLDivElement | null> }) {
  const ref = useRef<HTMLDivElement>(null);
  const setWidth = usePaneWidth((s) => s.set);
  const [bounds, setBounds] = useState({ min: 320, max: 320, now: 320 });
  const dragging = useRef(false);

  // Keeps aria-valuenow/min/max true to the layout, also when the window is resized.
  useEffect(() => {
    const el = area.current;
    const handle = ref.current;
    if (!el || !handle) return;
    const update = () => setBounds(measure(el, handle));
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    if (handle.nextElementSibling) ro.observe(handle.nextElementSibling);
    return () => ro.disconnect();
  }, [area]);

  const clamp = (w: number) => {
    const el = area.current;
    const handle = ref.current;
    if (!el || !handle) return w;
    const { min, max } = measure(el, handle);
    return Math.round(Math.min(max, Math.max(min, w)));
  };

  const apply = (w: number | null) => {
    if (w === null) {
      setWidth(null);
      return;
    }
    setWidth(clamp(w));
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    dragging.current = true;
  };
  const widthAt = (clientX: number) => {
    const el = area.current!;
    const right =
      el.getBoundingClientRect().right - Number.parseFloat(getComputedStyle(el).paddingRight || '0');
    return clamp(right - clientX - (ref.current?.offsetWidth ?? 0) / 2);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!dragging.current) return;
    area.current?.style.setProperty('--pane-width', `${widthAt(e.clientX)}px`);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (!dragging.current) return;
    dragging.current = false;
    e.currentTarget.releasePointerCapture(e.pointerId);
    apply(widthAt(e.clientX));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const el = area.current;
    const handle = ref.current;
    if (!el || !handle) return;
    // Measured now, not from state: keys pressed faster than the layout reports must each count.
    const now = measure(el, handle);
    const step = e.shiftKey ? BIG_STEP : STEP;
    // The handle sits left of the pane: moving it left widens the pane.
    switch (e.key) {
      case 'ArrowLeft':
        apply(now.now + step);
        break;
      case 'ArrowRight':
        apply(now.now - step);
        break;
      case 'Home':
        apply(now.min);
        break;
      case 'End':
        apply(now.max);
        break;
      case 'Enter':
        apply(null);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable separator is the ARIA window splitter; <hr> cannot take focus or a value
    <div
      ref={ref}
      className="pane-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the detail pane"
      aria-valuemin={Math.round(bounds.min)}
      aria-valuemax={Math.round(bounds.max)}
      aria-valuenow={Math.round(bounds.now)}
      aria-valuetext={`Detail pane ${Math.round(bounds.now)} pixels wide`}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onDoubleClick={() => apply(null)}
      onKeyDown={onKeyDown}
      data-testid="pane-resizer"
    />
  );
}
