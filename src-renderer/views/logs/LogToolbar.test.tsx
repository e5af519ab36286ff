// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LogToolbar } from './LogToolbar';

/** A snapshot's logs are fixed: the toolbar offers no Follow and no Pause; a live stream's does. */

afterEach(cleanup);

const noop = () => {};
const props = {
  containers: [],
  container: undefined,
  onContainer: noop,
  previous: false,
  onPrevious: noop,
  follow: true,
  onFollow: noop,
  tail: 1_000,
  onTail: noop,
  following: true,
  onPauseResume: noop,
  below: 0,
  wrap: false,
  onWrap: noop,
  timestamps: false,
  onTimestamps: noop,
  onClear: noop,
  onDownload: noop,
  expanded: false,
  onExpand: noop,
};

describe('LogToolbar', () => {
  it('offers Follow and Pause for a live stream', () => {
    render(<LogToolbar {...props} />);
    expect(screen.queryByTestId('log-follow')).not.toBeNull();
    expect(screen.queryByTestId('log-pause')).not.toBeNull();
  });
  it("offers neither for a snapshot's logs", () => {
    render(<LogToolbar {...props} fixed />);
    expect(screen.queryByTestId('log-follow')).toBeNull();
    expect(screen.queryByTestId('log-pause')).toBeNull();
    expect(screen.queryByTestId('log-wrap')).not.toBeNull();
  });
});
