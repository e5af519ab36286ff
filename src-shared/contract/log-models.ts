import type { LogFormat, LogLevel } from '../logs/types';
import type { Problem } from './problem';

/** Media types of the log endpoint; the first is the default. */
export const LOG_MEDIA_TYPES = ['text/plain', 'application/x-ndjson'] as const;
export type LogMediaType = (typeof LOG_MEDIA_TYPES)[number];
export const NDJSON = 'application/x-ndjson';

/** Kinds that have logs: a pod, or every pod a workload selects. */
export const LOG_RESOURCE_TYPES = ['pod', 'deployment', 'statefulset', 'daemonset', 'job'] as const;
export type LogResourceType = (typeof LOG_RESOURCE_TYPES)[number];

/** One container line, parsed. */
export interface LogLineRecord {
  type: 'line';
  pod: string;
  container: string;
  /** The kubelet's RFC3339Nano timestamp exactly as sent (the dedupe key across reconnects). */
  ts?: string;
  /** Epoch milliseconds of `ts`, or of the line's own time field when the kubelet sent none. */
  time?: number;
  level: LogLevel;
  format: LogFormat;
  message: string;
  /** What the container wrote, without the kubelet timestamp. */
  raw: string;
  fields?: Record<string, string>;
  /** Present when a search is active: true for a matching line, false for a context line. */
  match?: boolean;
}

export type LogMarkerEvent = 'terminated' | 'restarted' | 'pod-added' | 'pod-deleted' | 'unavailable' | 'gap';

/** Something that happened to the stream rather than a line the container wrote. */
export interface LogMarkerRecord {
  type: 'marker';
  pod: string;
  container: string;
  event: LogMarkerEvent;
  /** Epoch ms: when it happened (a restart: when the new instance started). */
  time: number;
  message: string;
  restartCount?: number;
  exitCode?: number;
  reason?: string;
}

/** Between two groups of grep -C context that do not touch (`--` in text/plain). */
export interface LogSeparatorRecord {
  type: 'separator';
}

/** The stream failed after it started; nothing follows. */
export interface LogErrorRecord {
  type: 'error';
  problem: Problem;
}

export type LogRecord = LogLineRecord | LogMarkerRecord | LogSeparatorRecord | LogErrorRecord;
