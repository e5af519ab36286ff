/**
 * The change recorder's cases (recorder.test-support.ts) on SQLite in a temp dir: no PostgreSQL
 * server, so mutation runs of recorder.ts, reconcile.ts and rows.ts can name this file alone.
 */
import { describe } from 'vitest';
import { recorderCases } from './recorder.test-support';

describe('on sqlite', () => recorderCases('sqlite'));
