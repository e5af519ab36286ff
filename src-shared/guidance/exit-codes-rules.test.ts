import { describe, expect, it } from 'vitest';
import { CONDITIONS, EVENTS, LOGS_PREV } from './data/actions';
import { type ExitCodeExplanation, explainExitCode, signalName } from './exit-codes';

/** Every explanation is complete: texts to show and actions that go with them. */
function expectComplete(e: ExitCodeExplanation) {
  expect(e.subject).toBe('exit-code');
  expect(e.match).toBe(String(e.code));
  expect(e.title).toContain(`Exit ${e.code}`);
  expect(e.meaning.trim()).not.toBe('');
  expect(e.causes.length).toBeGreaterThan(0);
  for (const cause of e.causes) expect(cause.trim()).not.toBe('');
  expect(e.checks.length).toBeGreaterThan(0);
  for (const check of e.checks) {
    expect(check.text.trim()).not.toBe('');
    expect(check.action).toBeDefined();
  }
}

const NATIVE_CRASH = /native crash/i;

describe('signal names', () => {
  it('1 to 31 are the standard Linux signals', () => {
    expect(signalName(1)).toBe('SIGHUP');
    expect(signalName(9)).toBe('SIGKILL');
    expect(signalName(31)).toBe('SIGSYS');
  });

  it('34 to 64 are real-time signals counted from SIGRTMIN', () => {
    expect(signalName(34)).toBe('SIGRTMIN+0');
    expect(signalName(50)).toBe('SIGRTMIN+16');
    expect(signalName(64)).toBe('SIGRTMIN+30');
  });

  it('32, 33 and numbers past 64 have no name', () => {
    expect(signalName(32)).toBe('signal 32');
    expect(signalName(33)).toBe('signal 33');
    expect(signalName(65)).toBe('signal 65');
    expect(signalName(0)).toBe('signal 0');
  });
});

describe('exit codes 128 + N', () => {
  it('codes 129 to 192 are read as 128 + the signal number', () => {
    const first = explainExitCode(129);
    expect(first.signal).toBe(1);
    expect(first.signalName).toBe('SIGHUP');
    const last = explainExitCode(192);
    expect(last.signal).toBe(64);
    expect(last.signalName).toBe('SIGRTMIN+30');
  });

  it('128 itself and codes past 192 carry no signal', () => {
    for (const code of [128, 193, 200]) {
      const e = explainExitCode(code);
      expect(e.signal).toBeUndefined();
      expect(e.signalName).toBeUndefined();
    }
  });

  it('a signal without an entry of its own is explained as killed by that signal', () => {
    const e = explainExitCode(138);
    expectComplete(e);
    expect(e.id).toBe('exit-code-signal-10');
    expect(e.severity).toBe('error');
    expect(e.title).toContain('SIGUSR1');
    expect(e.meaning).toContain('138 = 128 + 10');
    expect(e.meaning).toContain('SIGUSR1');
    expect(e.causes[0]).toContain('SIGUSR1');
    expect(e.checks.map((c) => c.action)).toEqual([LOGS_PREV, EVENTS]);
  });

  it('SIGILL, SIGBUS and SIGFPE are explained as a native crash, other signals are not', () => {
    for (const code of [128 + 4, 128 + 7, 128 + 8]) {
      expect(explainExitCode(code).causes.join(' ')).toMatch(NATIVE_CRASH);
    }
    for (const code of [128 + 3, 128 + 5, 128 + 10, 128 + 14]) {
      const causes = explainExitCode(code).causes;
      expect(causes).toHaveLength(2);
      expect(causes.join(' ')).not.toMatch(NATIVE_CRASH);
    }
  });

  it('OOMKilled: 137 is SIGKILL with its own entry', () => {
    const e = explainExitCode(137);
    expectComplete(e);
    expect(e.id).toBe('exit-code-137');
    expect(e.signal).toBe(9);
    expect(e.signalName).toBe('SIGKILL');
    expect(e.causes.join(' ')).toMatch(/OOMKilled/);
  });
});

describe('explicit signals', () => {
  it('a signal of 0 from the runtime is no signal: the code decides', () => {
    const e = explainExitCode(137, 0);
    expect(e.id).toBe('exit-code-137');
    expect(e.signal).toBe(9);
  });

  it('an explicit signal that agrees with the code keeps the entry of the code', () => {
    const e = explainExitCode(143, 15);
    expect(e.id).toBe('exit-code-143');
    expect(e.signalName).toBe('SIGTERM');
  });

  it('an explicit signal that disagrees with the code gets the generic signal text', () => {
    const e = explainExitCode(137, 15);
    expectComplete(e);
    expect(e.id).toBe('exit-code-signal-15');
    expect(e.code).toBe(137);
    expect(e.signal).toBe(15);
    expect(e.signalName).toBe('SIGTERM');
  });

  it('a code with an entry and no signal has no signal fields', () => {
    const e = explainExitCode(1);
    expect(e.id).toBe('exit-code-1');
    expect(e).not.toHaveProperty('signal');
    expect(e).not.toHaveProperty('signalName');
  });
});

describe('other codes', () => {
  it('a code from 0 to 255 without an entry is application-defined', () => {
    for (const code of [3, 42, 200]) {
      const e = explainExitCode(code);
      expectComplete(e);
      expect(e.id).toBe('exit-code-application');
      expect(e.severity).toBe('error');
      expect(e.meaning).toContain(String(code));
      expect(e.meaning).not.toMatch(/Windows/);
      expect(e.checks.map((c) => c.action)).toEqual([LOGS_PREV, CONDITIONS]);
    }
  });

  it('a code past 255 or below 0 is out of range and shown as upper-case hex', () => {
    const big = explainExitCode(3221226505);
    expectComplete(big);
    expect(big.id).toBe('exit-code-out-of-range');
    expect(big.meaning).toContain('(0xC0000409)');
    expect(big.meaning).toMatch(/Windows/);
    expect(explainExitCode(256).id).toBe('exit-code-out-of-range');
    const negative = explainExitCode(-1073740791);
    expect(negative.id).toBe('exit-code-out-of-range');
    expect(negative.meaning).toContain('(0xC0000409)');
    expect(negative.signal).toBeUndefined();
  });
});
