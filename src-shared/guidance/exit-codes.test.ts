import { describe, expect, it } from 'vitest';
import { explainExitCode, signalName } from './exit-codes';

describe('explainExitCode', () => {
  it.each([
    [0, 'info', /success/],
    [1, 'error', /application error/],
    [2, 'error', /Go panic/],
    [126, 'error', /not executable/],
    [127, 'error', /not found/],
    [255, 'error', /out of range/],
  ])('%i', (code, severity, title) => {
    const e = explainExitCode(code);
    expect(e.code).toBe(code);
    expect(e.severity).toBe(severity);
    expect(e.title).toMatch(title);
    expect(e.signal).toBeUndefined();
  });

  it.each([
    [130, 2, 'SIGINT'],
    [134, 6, 'SIGABRT'],
    [137, 9, 'SIGKILL'],
    [139, 11, 'SIGSEGV'],
    [143, 15, 'SIGTERM'],
  ])('%i is signal %i (%s)', (code, signal, name) => {
    const e = explainExitCode(code);
    expect(e.signal).toBe(signal);
    expect(e.signalName).toBe(name);
    expect(e.title).toContain(name);
    expect(e.id).toBe(`exit-code-${code}`);
  });

  it('mentions OOM and liveness for 137', () => {
    const e = explainExitCode(137);
    expect(e.causes.join(' ')).toMatch(/OOMKilled/);
    expect(e.causes.join(' ')).toMatch(/liveness/);
  });

  it('explains other 128+n codes generically', () => {
    const e = explainExitCode(135);
    expect(e.signal).toBe(7);
    expect(e.signalName).toBe('SIGBUS');
    expect(e.title).toBe('Exit 135: killed by SIGBUS');
    expect(explainExitCode(129).signalName).toBe('SIGHUP');
    expect(explainExitCode(128 + 40).signalName).toBe('SIGRTMIN+6');
  });

  it('uses an explicit signal', () => {
    expect(explainExitCode(137, 9).id).toBe('exit-code-137');
    const odd = explainExitCode(0, 9);
    expect(odd.signalName).toBe('SIGKILL');
    expect(odd.code).toBe(0);
  });

  it('treats other codes as application-defined', () => {
    expect(explainExitCode(3).title).toMatch(/application-defined/);
    expect(explainExitCode(200).signal).toBeUndefined();
    expect(explainExitCode(3221225477).meaning).toMatch(/0XC0000005|0xC0000005/i);
  });

  it('names signals', () => {
    expect(signalName(15)).toBe('SIGTERM');
    expect(signalName(99)).toBe('signal 99');
  });
});
