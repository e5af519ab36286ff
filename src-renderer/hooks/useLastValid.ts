import { useRef } from 'react';

/**
 * The latest value that passed `isValid`, or `initial` until one has. A filter typed into a box
 * goes through invalid states on the way to a valid one (`app in (a,` before `app in (a,b)`);
 * what it filters keeps the last valid one meanwhile, so a half-typed selector does not empty
 * the list it is refining. Kept in a ref: it is derived from the renders' values alone, and
 * storing it as state would render twice for every keystroke.
 */
export function useLastValid<T>(value: T, isValid: (v: T) => boolean, initial: T): T {
  const last = useRef(initial);
  if (isValid(value)) last.current = value;
  return last.current;
}
