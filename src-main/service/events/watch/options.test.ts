/**
 * The event watch's options: the defaults of what is not given, and what is given wins.
 */
import { describe, expect, it } from 'vitest';
import { resolveWatchOptions } from './options';

describe('event watch options', () => {
  it('unset options take the documented defaults', () => {
    expect(resolveWatchOptions()).toEqual({
      heartbeatMs: 15_000,
      credentialCheckMs: 500,
      maxPerCredential: 8,
      maxBacklog: 10_000,
      retryMs: 3_000,
    });
    expect(resolveWatchOptions({})).toEqual(resolveWatchOptions());
  });

  it('each option given wins over its default, the others keep theirs', () => {
    const given = {
      heartbeatMs: 11,
      credentialCheckMs: 22,
      maxPerCredential: 3,
      maxBacklog: 44,
      retryMs: 55,
    };
    expect(resolveWatchOptions(given)).toEqual(given);
    expect(resolveWatchOptions({ maxPerCredential: 2 })).toEqual({
      ...resolveWatchOptions(),
      maxPerCredential: 2,
    });
  });
});
