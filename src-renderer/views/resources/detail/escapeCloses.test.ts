// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { escapeClosesPane } from './escapeCloses';

/** When Escape is the pane's to take, and when something nearer the person owns it. */

afterEach(() => {
  document.body.innerHTML = '';
});

function key(target: EventTarget | null, k = 'Escape', defaultPrevented = false) {
  return { key: k, target, defaultPrevented };
}

describe('escapeClosesPane', () => {
  it('closes on Escape from the page', () => {
    const row = document.body.appendChild(document.createElement('button'));
    expect(escapeClosesPane(key(row), document, false)).toBe(true);
    expect(escapeClosesPane(key(document.body), document, false)).toBe(true);
  });
  it('ignores other keys and a key already taken', () => {
    expect(escapeClosesPane(key(document.body, 'Enter'), document, false)).toBe(false);
    expect(escapeClosesPane(key(document.body, 'Escape', true), document, false)).toBe(false);
  });
  it('leaves Escape to a field being typed in', () => {
    for (const tag of ['input', 'textarea', 'select']) {
      const el = document.body.appendChild(document.createElement(tag));
      expect(escapeClosesPane(key(el), document, false), tag).toBe(false);
    }
    const editable = document.body.appendChild(document.createElement('div'));
    editable.setAttribute('contenteditable', 'true');
    expect(escapeClosesPane(key(editable), document, false)).toBe(false);
  });
  it('leaves Escape to the palette, an open modal and an expanded log view', () => {
    expect(escapeClosesPane(key(document.body), document, true)).toBe(false);
    const dialog = document.body.appendChild(document.createElement('dialog'));
    dialog.setAttribute('open', '');
    expect(escapeClosesPane(key(document.body), document, false)).toBe(false);
    dialog.remove();
    const logs = document.body.appendChild(document.createElement('section'));
    logs.className = 'log-viewer log-viewer-expanded';
    expect(escapeClosesPane(key(document.body), document, false)).toBe(false);
    logs.className = 'log-viewer';
    expect(escapeClosesPane(key(document.body), document, false)).toBe(true);
  });
});
