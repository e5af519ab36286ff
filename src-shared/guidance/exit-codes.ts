import { CONDITIONS, EVENTS, LOGS_PREV } from './data/actions';
import { EXIT_CODES } from './data/exit-codes';
import type { GuidanceEntry } from './types';

// Linux signal numbers (x86-64 and arm64 agree on 1–31).
const SIGNAL_NAMES: readonly string[] = [
  '',
  'SIGHUP',
  'SIGINT',
  'SIGQUIT',
  'SIGILL',
  'SIGTRAP',
  'SIGABRT',
  'SIGBUS',
  'SIGFPE',
  'SIGKILL',
  'SIGUSR1',
  'SIGSEGV',
  'SIGUSR2',
  'SIGPIPE',
  'SIGALRM',
  'SIGTERM',
  'SIGSTKFLT',
  'SIGCHLD',
  'SIGCONT',
  'SIGSTOP',
  'SIGTSTP',
  'SIGTTIN',
  'SIGTTOU',
  'SIGURG',
  'SIGXCPU',
  'SIGXFSZ',
  'SIGVTALRM',
  'SIGPROF',
  'SIGWINCH',
  'SIGIO',
  'SIGPWR',
  'SIGSYS',
];

export function signalName(signal: number): string {
  return (
    SIGNAL_NAMES[signal] || (signal >= 34 && signal <= 64 ? `SIGRTMIN+${signal - 34}` : `signal ${signal}`)
  );
}

export type ExitCodeExplanation = GuidanceEntry & {
  code: number;
  /** Set when the exit was caused by a signal (code 128+n, or an explicit signal). */
  signal?: number;
  signalName?: string;
};

const BY_CODE = new Map(EXIT_CODES.map((e) => [Number(e.match), e]));

function bySignal(code: number, signal: number): ExitCodeExplanation {
  const name = signalName(signal);
  return {
    id: `exit-code-signal-${signal}`,
    subject: 'exit-code',
    match: String(code),
    title: `Exit ${code}: killed by ${name}`,
    severity: 'error',
    meaning: `Codes above 128 mean the process was ended by a signal: ${code} = 128 + ${signal} (${name}).`,
    causes: [
      `Something sent ${name}: the kernel (faults, limits), the runtime, or another process.`,
      signal === 7 || signal === 4 || signal === 8
        ? 'A native crash (bad memory access, illegal instruction, arithmetic fault), often an architecture or library mismatch.'
        : 'A sidecar, debugger or script that signals the main process.',
    ],
    checks: [
      { text: 'Read the last log lines of the terminated instance.', action: LOGS_PREV },
      { text: 'Look at events around the termination.', action: EVENTS },
    ],
    code,
    signal,
    signalName: name,
  };
}

function generic(code: number): ExitCodeExplanation {
  const outOfRange = code < 0 || code > 255;
  return {
    id: outOfRange ? 'exit-code-out-of-range' : 'exit-code-application',
    subject: 'exit-code',
    match: String(code),
    title: `Exit ${code}: application-defined`,
    severity: 'error',
    meaning: outOfRange
      ? `Linux exit codes are 0–255; ${code} (0x${(code >>> 0).toString(16).toUpperCase()}) most likely comes from a Windows container (an NTSTATUS/HRESULT such as 0xC0000005, access violation).`
      : `Exit code ${code} has no standard meaning; the program chose it. Its documentation or source says what it means.`,
    causes: ['A program-specific error condition.'],
    checks: [
      { text: 'Read the log of the terminated instance; the program usually prints why.', action: LOGS_PREV },
      { text: 'Check the terminated message.', action: CONDITIONS },
    ],
    code,
  };
}

/**
 * Explains a container exit. `signal` is ContainerStateTerminated.signal when the
 * runtime reports it; otherwise codes 129–192 are read as 128 + signal number.
 */
export function explainExitCode(code: number, signal?: number): ExitCodeExplanation {
  const sig =
    signal !== undefined && signal > 0 ? signal : code > 128 && code <= 128 + 64 ? code - 128 : undefined;
  // An explicit signal that disagrees with the code (runtime quirks) gets the generic signal text.
  const known = sig === undefined || code === 128 + sig ? BY_CODE.get(code) : undefined;
  if (known) {
    const withCode = { ...known, code };
    return sig !== undefined ? { ...withCode, signal: sig, signalName: signalName(sig) } : withCode;
  }
  if (sig !== undefined) return bySignal(code, sig);
  return generic(code);
}
