import { z } from 'zod';
import type { LogFormat, LogLevel } from '../logs/types';
import { problem } from './problem';

/** Media types of the log endpoint; the first is the default. */
export const LOG_MEDIA_TYPES = ['text/plain', 'application/x-ndjson'] as const;
export type LogMediaType = (typeof LOG_MEDIA_TYPES)[number];
export const NDJSON = 'application/x-ndjson';

/** Kinds that have logs: a pod, or every pod a workload selects. */
export const LOG_RESOURCE_TYPES = ['pod', 'deployment', 'statefulset', 'daemonset', 'job'] as const;
export type LogResourceType = (typeof LOG_RESOURCE_TYPES)[number];

/**
 * The records of the NDJSON log stream, one JSON document per line. Strict: the suites validate
 * every line they read, so a field the schema does not name fails them, and the API document
 * describes a line by this schema.
 */

const logLevels = ['ERROR', 'WARN', 'INFO', 'DEBUG', 'TRACE', 'UNKNOWN'] as const;
const logFormats = ['json', 'logfmt', 'prefix', 'plain'] as const;
// The parser's unions (src-shared/logs/types.ts) and these lists must name the same values.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _levelsMatch: Same<(typeof logLevels)[number], LogLevel> = true;
const _formatsMatch: Same<(typeof logFormats)[number], LogFormat> = true;

export const logLevel = z.enum(logLevels).meta({ id: 'LogLevel' });
export const logFormat = z
  .enum(logFormats)
  .meta({ id: 'LogFormat', description: "How the container's text was recognised." });

/** One container line, parsed. */
export const logLineRecord = z
  .strictObject({
    type: z.literal('line'),
    pod: z.string(),
    container: z.string(),
    ts: z.string().optional().meta({
      description: "The kubelet's RFC3339Nano timestamp exactly as sent (the dedupe key across reconnects).",
    }),
    time: z.number().optional().meta({
      description: "Epoch milliseconds of `ts`, or of the line's own time field when the kubelet sent none.",
    }),
    level: logLevel,
    format: logFormat,
    message: z.string(),
    raw: z.string().meta({ description: 'What the container wrote, without the kubelet timestamp.' }),
    fields: z.record(z.string(), z.string()).optional().meta({
      description: 'Top-level fields of a json or logfmt line (absent with fields=false).',
    }),
    match: z.boolean().optional().meta({
      description: 'Present when a search is active: true for a matching line, false for a context line.',
    }),
  })
  .meta({ id: 'LogLineRecord' });
export type LogLineRecord = z.infer<typeof logLineRecord>;

export const logMarkerEvent = z
  .enum(['terminated', 'restarted', 'pod-added', 'pod-deleted', 'unavailable', 'gap'])
  .meta({ id: 'LogMarkerEvent' });
export type LogMarkerEvent = z.infer<typeof logMarkerEvent>;

/** Something that happened to the stream rather than a line the container wrote. */
export const logMarkerRecord = z
  .strictObject({
    type: z.literal('marker'),
    pod: z.string(),
    container: z.string(),
    event: logMarkerEvent,
    time: z.number().meta({
      description: 'Epoch ms: when it happened (a restart: when the new instance started).',
    }),
    message: z.string(),
    restartCount: z.number().int().optional(),
    exitCode: z.number().int().optional(),
    reason: z.string().optional(),
  })
  .meta({ id: 'LogMarkerRecord' });
export type LogMarkerRecord = z.infer<typeof logMarkerRecord>;

/** Between two groups of grep -C context that do not touch (`--` in text/plain). */
export const logSeparatorRecord = z
  .strictObject({ type: z.literal('separator') })
  .meta({ id: 'LogSeparatorRecord' });
export type LogSeparatorRecord = z.infer<typeof logSeparatorRecord>;

/** The stream failed after it started; nothing follows. */
export const logErrorRecord = z
  .strictObject({ type: z.literal('error'), problem })
  .meta({ id: 'LogErrorRecord' });
export type LogErrorRecord = z.infer<typeof logErrorRecord>;

/** One line of the application/x-ndjson log stream. */
export const logRecord = z
  .discriminatedUnion('type', [logLineRecord, logMarkerRecord, logSeparatorRecord, logErrorRecord])
  .meta({
    id: 'LogRecord',
    description:
      'One line of the application/x-ndjson log stream: a container line, a marker (restart, pod added or deleted...), a separator between search context groups, or a final error.',
  });
export type LogRecord = z.infer<typeof logRecord>;
