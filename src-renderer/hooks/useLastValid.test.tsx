// @vitest-environment happy-dom
import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSelector } from '../views/resources/SelectorBox';
import { useLastValid } from './useLastValid';

/** What a list filters by while its selector box holds a half-typed, invalid selector. */

afterEach(cleanup);

const valid = (s: string) => checkSelector(s).ok;

describe('useLastValid', () => {
  it('keeps the last valid selector while the box holds an invalid one, and takes the next valid one', () => {
    const { result, rerender } = renderHook(({ text }) => useLastValid(text, valid, ''), {
      initialProps: { text: 'app=frontend' },
    });
    expect(result.current).toBe('app=frontend');
    rerender({ text: 'app=frontend,=x' });
    expect(result.current).toBe('app=frontend');
    rerender({ text: 'app in (frontend,checkout' });
    expect(result.current).toBe('app=frontend');
    rerender({ text: 'tier=web' });
    expect(result.current).toBe('tier=web');
  });

  it('answers the initial value until a valid one has been seen', () => {
    const { result, rerender } = renderHook(({ text }) => useLastValid(text, valid, 'none-yet'), {
      initialProps: { text: '=x' },
    });
    expect(result.current).toBe('none-yet');
    rerender({ text: '' });
    expect(result.current).toBe('');
  });
});
