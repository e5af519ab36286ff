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
    if (focus?.section !== id || !ref.current) return;
    ref.current.scrollIntoView({ block: 'start', behavior: 'smooth' });
    ref.current.focus({ preventScroll: true });
    setFlash(true);
    const t = setTimeout(() => setFlash(false), 1600);
    return () => clearTimeout(t);
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
