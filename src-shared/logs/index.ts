export {
  applyLogFilter,
  type CompileLogFilterResult,
  compileLogFilter,
  createLogFilterCursor,
  createLogFilterStream,
  type LevelSet,
  type LogFilter,
  type LogFilterCursor,
  type LogFilterResult,
  type LogFilterSink,
  type LogFilterSpec,
  type LogFilterStream,
  type LogFilterStreamItem,
  MAX_CONTEXT,
  toDisplayRows,
} from './filter';
export { levelFromNumber, normalizeLevel } from './level';
export {
  createLiveMerger,
  type LiveMerger,
  type LiveMergerOptions,
  type LogSource,
  type MergedLog,
  mergeByTime,
} from './merge';
export { type ParseOptions, parseLogLine } from './parse';
export {
  type CompiledSearch,
  type CompileSearchResult,
  compileSearch,
  findMatches,
  MAX_PATTERN_LENGTH,
  type RegexTester,
  type SearchSpec,
} from './search';
export { compareTsText, epochToMs } from './time';
export type { LogEntry, LogFormat, LogLevel } from './types';
export { LOG_LEVELS } from './types';
