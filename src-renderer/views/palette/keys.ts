/**
 * Which key presses open the command palette: Ctrl-K or Cmd-K anywhere (as in editors and
 * browsers' own palettes), and `:` as in k9s, but not while typing into a field (a label
 * selector has colons), nor with Alt or Ctrl held (a layout's own `:` chord stays the layout's).
 */

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** Where the key went: the focused element. */
  target: EventTarget | null;
}

/** A field that takes text: the palette's `:` must not steal a colon typed into it. */
export function isTyping(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).tagName !== 'string') return false;
  const el = target as HTMLElement;
  const tag = el.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select') return true;
  if (tag === 'input') {
    const type = (el as HTMLInputElement).type.toLowerCase();
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file', 'image'].includes(
      type,
    );
  }
  return el.isContentEditable === true;
}

export function opensPalette(e: KeyLike): boolean {
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') return true;
  return e.key === ':' && !e.ctrlKey && !e.metaKey && !e.altKey && !isTyping(e.target);
}
