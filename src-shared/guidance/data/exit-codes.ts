import type { GuidanceEntry } from '../types';
import { CONDITIONS, EVENTS, field, LOGS, LOGS_PREV, PROBES, RESOURCES } from './actions';

function code(n: number, rest: Omit<GuidanceEntry, 'id' | 'subject' | 'match'>): GuidanceEntry {
  return { id: `exit-code-${n}`, subject: 'exit-code', match: String(n), ...rest };
}

/** Exit codes with a specific, well-known meaning. Other 128+n codes are built in exit-codes.ts. */
export const EXIT_CODES: GuidanceEntry[] = [
  code(0, {
    title: 'Exit 0: success',
    severity: 'info',
    meaning:
      'The process finished without error. For a Job that is the goal; in a Deployment/StatefulSet/DaemonSet the container is restarted and eventually shows CrashLoopBackOff.',
    causes: [
      'The task completed.',
      'A server process that daemonized or a one-shot command in a long-running workload.',
    ],
    checks: [
      {
        text: 'If it should keep running, check the command runs in the foreground.',
        action: field('spec.containers[].command'),
      },
    ],
  }),
  code(1, {
    title: 'Exit 1: application error',
    severity: 'error',
    meaning:
      'The generic failure code: the application (or its runtime) decided to exit with an error. Only its output says why.',
    causes: [
      'An unhandled exception (Java, Python traceback, Node.js uncaught error).',
      'Startup validation failed: missing config, env var, file or unreachable dependency.',
      'A shell script whose last command failed.',
    ],
    checks: [
      { text: "Read the last lines of the failed instance's log.", action: LOGS_PREV },
      { text: 'Check env and mounted config.', action: field('spec.containers[].env') },
    ],
  }),
  code(2, {
    title: 'Exit 2: usage error or Go panic',
    severity: 'error',
    meaning:
      'Conventionally "misuse": invalid command-line arguments (argparse, many CLIs) or a shell syntax error. A Go program also exits 2 on an unrecovered panic.',
    causes: [
      'Wrong or unknown flags in args.',
      'A Go panic (look for "panic:" and a goroutine trace).',
      'A shell script syntax error.',
    ],
    checks: [
      { text: 'Check the args passed to the program.', action: field('spec.containers[].args') },
      { text: 'Read the log for a usage message or panic trace.', action: LOGS_PREV },
    ],
  }),
  code(126, {
    title: 'Exit 126: command not executable',
    severity: 'error',
    meaning: 'The command was found but could not be executed.',
    causes: [
      'Missing execute permission on the binary or script (lost in a COPY, or a volume mounted with defaultMode 0644).',
      'The path is a directory, or the binary is for another CPU architecture.',
      'noexec mount or a security policy denying execution.',
    ],
    checks: [
      {
        text: 'Check the command and the volume defaultMode for mounted scripts.',
        action: field('spec.containers[].command'),
      },
      { text: 'Read the error in the log.', action: LOGS_PREV },
    ],
  }),
  code(127, {
    title: 'Exit 127: command not found',
    severity: 'error',
    meaning: 'The shell could not find the command.',
    causes: [
      'Typo in command/args, or the binary is not in this image (distroless/alpine lack bash, curl, …).',
      'A script\'s interpreter is missing ("#!/bin/bash" on alpine) or has Windows line endings ("/bin/sh^M").',
      '$PATH differs from what the command assumes.',
    ],
    checks: [
      { text: 'Check command and args.', action: field('spec.containers[].command') },
      { text: 'The log usually says "<name>: not found".', action: LOGS_PREV },
    ],
  }),
  code(128, {
    title: 'Exit 128: process could not start',
    severity: 'error',
    meaning:
      'The container runtime failed to start the process (containerd reason StartError); the terminated message carries the runtime error.',
    causes: ['Entrypoint missing or not executable.', 'Invalid mount, device or security profile.'],
    checks: [
      { text: 'Read the terminated message.', action: CONDITIONS },
      { text: 'Check command/args.', action: field('spec.containers[].command') },
    ],
  }),
  code(130, {
    title: 'Exit 130: interrupted (SIGINT)',
    severity: 'warning',
    meaning: 'The process ended on SIGINT (128+2), the Ctrl-C signal.',
    causes: [
      'Someone pressed Ctrl-C in `kubectl attach`/`kubectl run -it`.',
      'The image sets STOPSIGNAL SIGINT, so a normal stop ends this way.',
    ],
    checks: [{ text: 'Check the events for Killing around that time.', action: EVENTS }],
  }),
  code(134, {
    title: 'Exit 134: aborted (SIGABRT)',
    severity: 'error',
    meaning: 'The process called abort() (128+6): a fatal runtime or native-library error.',
    causes: [
      'Node.js "JavaScript heap out of memory" — raise --max-old-space-size (and the memory limit).',
      'A failed assertion or glibc heap corruption ("double free or corruption").',
      'A JVM crash (an hs_err_pid file is written).',
    ],
    checks: [
      { text: 'Read the last log lines — the abort reason is printed just before.', action: LOGS_PREV },
      { text: 'Check memory limits if the message mentions heap.', action: RESOURCES },
    ],
  }),
  code(137, {
    title: 'Exit 137: killed (SIGKILL)',
    severity: 'error',
    meaning:
      'The process was killed with SIGKILL (128+9), which cannot be caught. If the reason is OOMKilled it hit the memory limit; otherwise something killed it from outside.',
    causes: [
      'Out of memory: container limit (reason OOMKilled) or node OOM.',
      'A failed liveness/startup probe, or a deletion, and the process did not exit within terminationGracePeriodSeconds after SIGTERM.',
      'Eviction, or the container being lost (reason ContainerStatusUnknown).',
    ],
    checks: [
      { text: 'Check the terminated reason: OOMKilled or not.', action: CONDITIONS },
      { text: 'Check the memory limit.', action: RESOURCES },
      { text: 'Look for Unhealthy and Killing events just before.', action: PROBES },
      {
        text: 'Check whether the app handles SIGTERM within the grace period.',
        action: field('spec.terminationGracePeriodSeconds'),
      },
    ],
  }),
  code(139, {
    title: 'Exit 139: segmentation fault (SIGSEGV)',
    severity: 'error',
    meaning: 'The process accessed invalid memory (128+11), a crash in native code.',
    causes: [
      'A bug in native code or a native library/extension.',
      'A binary built against glibc running on musl (alpine), or mismatched library versions.',
      'Stack overflow in native code, or broken emulation of another CPU architecture.',
    ],
    checks: [
      {
        text: 'Read the log for the crash site; compare with the previous working image.',
        action: LOGS_PREV,
      },
      { text: 'Check the image tag/base that changed.', action: field('spec.containers[].image') },
    ],
  }),
  code(143, {
    title: 'Exit 143: terminated (SIGTERM)',
    severity: 'warning',
    meaning:
      'The process exited on SIGTERM (128+15), the polite stop signal the kubelet sends first. Usually a normal shutdown: deletion, rollout, scale-down, drain — or a liveness probe restart.',
    causes: [
      'The pod was deleted or replaced (rollout, scale-down, eviction, preemption).',
      'A failed liveness/startup probe triggered a restart.',
    ],
    checks: [
      { text: 'If the restart was unexpected, look for Unhealthy/Killing events.', action: EVENTS },
      { text: 'Check the probes.', action: PROBES },
    ],
  }),
  code(255, {
    title: 'Exit 255: exit status out of range',
    severity: 'error',
    meaning:
      'The process exited with -1 (wrapped to 255) or an out-of-range status; some runtimes also report 255 when they lost the process.',
    causes: [
      'The program called exit(-1) on a fatal error.',
      'A tool that uses 255 for connection failures (ssh).',
      'The node or runtime restarted and the container state was lost.',
    ],
    checks: [
      { text: 'Read the log of the failed instance.', action: LOGS_PREV },
      { text: 'Check the node for reboots or runtime restarts.', action: EVENTS },
      { text: 'Read the current logs.', action: LOGS },
    ],
  }),
];
