import { useEffect } from 'react';
import { usePalette } from '../../palette/CommandPalette';

/**
 * Escape closes the detail pane, as in Lens and k9s, but only when nothing nearer the person owns
 * the key: a field being typed in (Escape there means "leave the field"), an open modal or the
 * palette (each closes itself), an expanded log view (Escape shrinks it), or a handler that
 * already took the key (defaultPrevented). The pane installs this only while it is shown.
 */

/** The parts of a keydown this decides on; a plain object so tests need no DOM event. */
export interface EscapeKey {
  key: string;
  defaultPrevented: boolean;
  target: EventTarget | null;
}

const TYPING = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';
const OWNS_ESCAPE = 'dialog[open], [role="dialog"], [aria-modal="true"], .log-viewer-expanded';

export function escapeClosesPane(e: EscapeKey, doc: Document, paletteOpen: boolean): boolean {
  if (e.key !== 'Escape' || e.defaultPrevented || paletteOpen) return false;
  const el = e.target instanceof Element ? e.target : null;
  if (el?.closest(TYPING)) return false;
  return doc.querySelector(OWNS_ESCAPE) === null;
}

export function useEscapeCloses(close: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!escapeClosesPane(e, document, usePalette.getState().open)) return;
      e.preventDefault();
      close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [close]);
}
