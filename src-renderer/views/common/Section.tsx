import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useRoute } from '../../state/route';

/**
 * A titled part of a detail pane. Guidance buttons ask for a section by id (route.focus);
 * the section then scrolls into view and flashes so the eye finds it.
 */
export function Section({
  id,
  title,
  children,
  actions,
}: {
  id: string;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const ref = useRef<HTMLElement>(null);
  const focus = useRoute((s) => s.focus);
  const [flash, setFlash] = useState(false);
  useEffect(() => {
    const section = ref.current;
    if (focus?.section !== id || !section) return;
    section.scrollIntoView({ block: 'start', behavior: 'smooth' });
    section.focus({ preventScroll: true });
    setFlash(true);
    // Parts above the section still loading (an explanation's events, a pod's metrics) would
    // push it out of view again; until the flash ends, or the reader scrolls, it is held in place.
    const pane = section.parentElement;
    let held = true;
    const release = () => {
      held = false;
    };
    const hold = new ResizeObserver(() => {
      if (held) section.scrollIntoView({ block: 'start' });
    });
    if (pane) for (const child of Array.from(pane.children)) if (child !== section) hold.observe(child);
    pane?.addEventListener('wheel', release, { passive: true, once: true });
    pane?.addEventListener('touchstart', release, { passive: true, once: true });
    pane?.addEventListener('keydown', release, { once: true });
    const t = setTimeout(() => {
      setFlash(false);
      hold.disconnect();
    }, 1600);
    return () => {
      clearTimeout(t);
      hold.disconnect();
      pane?.removeEventListener('wheel', release);
      pane?.removeEventListener('touchstart', release);
      pane?.removeEventListener('keydown', release);
    };
  }, [focus, id]);
  const headingId = `section-${id}`;
  return (
    <section
      ref={ref}
      className={`section ${flash ? 'section-flash' : ''}`}
      aria-labelledby={headingId}
      data-section={id}
      tabIndex={-1}
    >
      <header className="section-head">
        <h3 id={headingId}>{title}</h3>
        {actions}
      </header>
      {children}
    </section>
  );
}
