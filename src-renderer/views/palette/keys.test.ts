// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { isTyping, type KeyLike, opensPalette } from './keys';

/** The palette's shortcuts: Ctrl/Cmd-K anywhere, `:` only outside text fields. */

const press = (
  key: string,
  mods: Partial<KeyLike> = {},
  target: EventTarget | null = document.body,
): KeyLike => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target,
  ...mods,
});

const el = (html: string): HTMLElement => {
  const host = document.createElement('div');
  host.innerHTML = html;
  return host.firstElementChild as HTMLElement;
};

describe('opensPalette', () => {
  it('opens on Ctrl-K and Cmd-K, even in a field, whatever the case', () => {
    expect(opensPalette(press('k', { ctrlKey: true }))).toBe(true);
    expect(opensPalette(press('K', { metaKey: true }))).toBe(true);
    expect(opensPalette(press('k', { ctrlKey: true }, el('<input type="search">')))).toBe(true);
  });

  it('does not open on K alone or with Alt', () => {
    expect(opensPalette(press('k'))).toBe(false);
    expect(opensPalette(press('k', { ctrlKey: true, altKey: true }))).toBe(false);
    expect(opensPalette(press('j', { ctrlKey: true }))).toBe(false);
  });

  it('opens on : outside text fields only', () => {
    expect(opensPalette(press(':'))).toBe(true);
    expect(opensPalette(press(':', {}, null))).toBe(true);
    expect(opensPalette(press(':', {}, el('<button>x</button>')))).toBe(true);
    expect(opensPalette(press(':', {}, el('<input type="checkbox">')))).toBe(true);
    expect(opensPalette(press(':', {}, el('<input>')))).toBe(false);
    expect(opensPalette(press(':', {}, el('<input type="search">')))).toBe(false);
    expect(opensPalette(press(':', {}, el('<textarea></textarea>')))).toBe(false);
    expect(opensPalette(press(':', {}, el('<select></select>')))).toBe(false);
    expect(opensPalette(press(':', {}, el('<div contenteditable="true"></div>')))).toBe(false);
  });

  it('leaves a : chord with a modifier to the keyboard layout', () => {
    expect(opensPalette(press(':', { altKey: true }))).toBe(false);
    expect(opensPalette(press(':', { ctrlKey: true }))).toBe(false);
    expect(opensPalette(press(':', { metaKey: true }))).toBe(false);
  });
});

describe('isTyping', () => {
  it('knows text fields from other elements', () => {
    expect(isTyping(null)).toBe(false);
    expect(isTyping(window)).toBe(false);
    expect(isTyping(el('<input type="TEXT">'))).toBe(true);
    for (const type of [
      'button',
      'checkbox',
      'radio',
      'submit',
      'reset',
      'range',
      'color',
      'file',
      'image',
    ]) {
      expect(isTyping(el(`<input type="${type}">`)), type).toBe(false);
    }
    for (const type of ['text', 'search', 'email', 'number', 'password', 'url']) {
      expect(isTyping(el(`<input type="${type}">`)), type).toBe(true);
    }
    expect(isTyping(el('<div contenteditable="false"></div>'))).toBe(false);
    expect(isTyping(el('<div></div>'))).toBe(false);
  });
});
