import { type RefObject, useEffect, useRef } from 'react';

/**
 * Keeps a <dialog> shown as a modal while `open` holds, and closed otherwise: the browser then
 * traps focus, closes on Escape and makes the rest of the page inert. The state stays the
 * caller's; the dialog's own close (Escape) reaches it through the dialog's onClose.
 */
export function useModal(open: boolean): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return ref;
}
