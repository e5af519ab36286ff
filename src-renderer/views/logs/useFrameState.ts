import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * State that may be set hundreds of times a second (stats of every parsed chunk) but renders at
 * most once per animation frame, with the latest value.
 */
export function useFrameState<T>(initial: T): [T, (value: T) => void] {
  const [value, setValue] = useState(initial);
  const latest = useRef(initial);
  const frame = useRef(0);
  const set = useCallback((next: T) => {
    latest.current = next;
    if (frame.current !== 0) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      setValue(latest.current);
    });
  }, []);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  return [value, set];
}
