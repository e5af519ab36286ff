import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../../src-shared/contract/log-models';
import {
  compileLogFilter,
  type LogFilter,
  type LogFilterSpec,
  parseLogLine,
} from '../../../src-shared/logs/index';
import { ProblemError } from '../errors';
import { type LogEvent, markerEvent } from './events';
import { type FormatOptions, formatLog } from './format';

const T0 = Date.UTC(2026, 10, 24, 10, 0, 0);
const stamp = (ms: number) => new Date(ms).toISOString().replace('Z', '000001Z');

/** A container line as the kubelet sends it with timestamps=true. */
function line(pod: string, container: string, atMs: number, text: string): LogEvent {
  return { pod, container, entry: parseLogLine(`${stamp(atMs)} ${text}`, { timestamps: true }) };
}

/** A line without a kubelet timestamp (a continuation the parser could not stamp). */
function bare(pod: string, container: string, text: string): LogEvent {
  return { pod, container, entry: parseLogLine(text) };
}

async function* batches(list: LogEvent[][], failWith?: unknown): AsyncGenerator<LogEvent[], void, undefined> {
  for (const b of list) yield b;
  if (failWith !== undefined) throw failWith;
}

const opts = (o: Partial<FormatOptions> = {}): FormatOptions => ({
  ndjson: false,
  timestamps: false,
  filter: null,
  fields: true,
  ...o,
});

function filter(spec: LogFilterSpec): LogFilter {
  const r = compileLogFilter(spec);
  if (!r.ok) throw new Error(r.error);
  return r.filter;
}

async function chunksOf(
  list: LogEvent[][],
  o: Partial<FormatOptions> = {},
  multiPod = false,
  failWith?: unknown,
  signal = new AbortController().signal,
): Promise<string[]> {
  const out: string[] = [];
  for await (const c of formatLog({ multiPod, events: batches(list, failWith) }, opts(o), signal))
    out.push(c);
  return out;
}

const records = (chunks: string[]): LogRecord[] =>
  chunks
    .join('')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as LogRecord);

describe('text/plain', () => {
  it('writes each line as the container wrote it, one chunk per batch that shows anything', async () => {
    const chunks = await chunksOf([
      [line('p', 'c', T0, 'first'), line('p', 'c', T0 + 1, 'second')],
      [],
      [line('p', 'c', T0 + 2, 'third')],
    ]);
    expect(chunks).toEqual(['first\nsecond\n', 'third\n']);
  });

  it('prefixes pod and container only when several pods are interleaved', async () => {
    const list = [[line('web-1', 'app', T0, 'a'), line('web-2', 'app', T0 + 1, 'b')]];
    expect((await chunksOf(list, {}, true)).join('')).toBe('[web-1/app] a\n[web-2/app] b\n');
    expect((await chunksOf(list, {}, false)).join('')).toBe('a\nb\n');
  });

  it('keeps the kubelet timestamp in front when asked, and a line without one stays bare', async () => {
    const list = [[line('p', 'c', T0, 'stamped'), bare('p', 'c', 'unstamped')]];
    expect((await chunksOf(list, { timestamps: true })).join('')).toBe(`${stamp(T0)} stamped\nunstamped\n`);
    expect((await chunksOf(list, { timestamps: false })).join('')).toBe('stamped\nunstamped\n');
  });

  it('shows a marker as a framed message, with its time when timestamps are asked for', async () => {
    const m = markerEvent('web-1', 'app', 'restarted', T0 + 5, 'container app restarted (restart 1)');
    expect((await chunksOf([[m]], {}, true)).join('')).toBe(
      '[web-1/app] --- container app restarted (restart 1) ---\n',
    );
    expect((await chunksOf([[m]], { timestamps: true })).join('')).toBe(
      `${new Date(T0 + 5).toISOString()} --- container app restarted (restart 1) ---\n`,
    );
  });

  it('separates search context groups with a -- line', async () => {
    const list = [['x0', 'hit 1', 'x2', 'x3', 'x4', 'hit 5'].map((t, i) => line('p', 'c', T0 + i, t))];
    const f = filter({ search: { pattern: 'hit', regex: false, caseSensitive: true }, context: 1 });
    expect((await chunksOf(list, { filter: f })).join('')).toBe('x0\nhit 1\nx2\n--\nx4\nhit 5\n');
  });
});

describe('ndjson', () => {
  it('a line record carries its pod, container, times, level, format, message and raw text', async () => {
    const [rec] = records(
      await chunksOf([[line('p', 'c', T0, 'level=warn msg="disk low" dev=sda')]], { ndjson: true }),
    );
    expect(rec).toEqual({
      type: 'line',
      pod: 'p',
      container: 'c',
      ts: stamp(T0),
      time: T0,
      level: 'WARN',
      format: 'logfmt',
      message: 'disk low',
      raw: 'level=warn msg="disk low" dev=sda',
      fields: { level: 'warn', msg: 'disk low', dev: 'sda' },
    });
  });

  it('leaves out the times of an unstamped line, fields when not asked for, and fields a plain line lacks', async () => {
    const list = [[bare('p', 'c', 'level=info msg=hi'), line('p', 'c', T0, 'just text')]];
    const [lean, plain] = records(await chunksOf(list, { ndjson: true, fields: false }));
    expect(lean).toEqual({
      type: 'line',
      pod: 'p',
      container: 'c',
      level: 'INFO',
      format: 'logfmt',
      message: 'hi',
      raw: 'level=info msg=hi',
    });
    expect(plain).not.toHaveProperty('fields');
    const [full, plainFull] = records(await chunksOf(list, { ndjson: true, fields: true }));
    expect(full).toHaveProperty('fields', { level: 'info', msg: 'hi' });
    expect(plainFull).not.toHaveProperty('fields');
  });

  it('says which lines matched only when there is a search', async () => {
    const list = [['before', 'needle', 'after'].map((t, i) => line('p', 'c', T0 + i, t))];
    const searched = records(
      await chunksOf(list, {
        ndjson: true,
        filter: filter({ search: { pattern: 'needle', regex: false, caseSensitive: true }, context: 1 }),
      }),
    );
    expect(searched.map((r) => (r.type === 'line' ? [r.raw, r.match] : r.type))).toEqual([
      ['before', false],
      ['needle', true],
      ['after', false],
    ]);
    const levelled = records(
      await chunksOf(list, { ndjson: true, filter: filter({ levels: { INFO: true } }) }),
    );
    expect(levelled).toHaveLength(3);
    for (const r of levelled) expect(r).not.toHaveProperty('match');
  });

  it('writes a marker as its record and a context break as a separator record', async () => {
    const m = markerEvent('p', 'c', 'terminated', T0 + 3, 'container c terminated', { exitCode: 2 });
    const list = [
      [
        ...['hit a', 'after a', 'far', 'before b'].map((t, i) => line('p', 'c', T0 + i, t)),
        m,
        line('p', 'c', T0 + 9, 'hit b'),
      ],
    ];
    const f = filter({ search: { pattern: 'hit', regex: false, caseSensitive: true }, context: 1 });
    expect(records(await chunksOf(list, { ndjson: true, filter: f }))).toEqual([
      expect.objectContaining({ type: 'line', raw: 'hit a', match: true }),
      expect.objectContaining({ type: 'line', raw: 'after a', match: false }),
      m.marker,
      { type: 'separator' },
      expect.objectContaining({ type: 'line', raw: 'before b', match: false }),
      expect.objectContaining({ type: 'line', raw: 'hit b', match: true }),
    ]);
  });
});

describe('markers and filters', () => {
  const marker = (at: number) => markerEvent('p', 'c', 'restarted', at, `restart at ${at - T0}`);

  it('a marker passes the level and search filters but not the time range, whose bounds are inclusive', async () => {
    const list = [
      [
        line('p', 'c', T0, 'level=info msg=early'),
        marker(T0 - 1),
        marker(T0),
        line('p', 'c', T0 + 5, 'level=info msg=middle'),
        marker(T0 + 10),
        marker(T0 + 11),
      ],
    ];
    const f = filter({ levels: { ERROR: true, UNKNOWN: false }, from: T0, until: T0 + 10 });
    expect((await chunksOf(list, { filter: f })).join('')).toBe(
      '--- restart at 0 ---\n--- restart at 10 ---\n',
    );
    const searching = filter({ search: { pattern: 'nothing', regex: false, caseSensitive: true } });
    expect((await chunksOf(list, { filter: searching })).join('')).toBe(
      ['-1', '0', '10', '11'].map((n) => `--- restart at ${n} ---\n`).join(''),
    );
  });
});

describe('a stream that fails after it started', () => {
  const first = [[line('p', 'c', T0, 'one')]];

  it('ends ndjson with an error record carrying the problem', async () => {
    const failure = new ProblemError('log_unavailable', 'the container went away', { clusterStatus: 400 });
    const recs = records(await chunksOf(first, { ndjson: true }, false, failure));
    expect(recs.at(-1)).toEqual({ type: 'error', problem: failure.toProblem() });
    expect(recs).toHaveLength(2);
  });

  it('reports an unexpected failure as an internal error, without its text', async () => {
    const recs = records(await chunksOf(first, { ndjson: true }, false, new Error('secret detail')));
    const last = recs.at(-1);
    expect(last).toMatchObject({ type: 'error', problem: { code: 'internal_error', status: 500 } });
    expect(JSON.stringify(last)).not.toContain('secret detail');
  });

  it('ends text with a closing line naming the problem, then cuts the stream', async () => {
    const failure = new ProblemError('log_unavailable', 'the container went away');
    const seen: string[] = [];
    const run = async () => {
      for await (const c of formatLog(
        { multiPod: false, events: batches(first, failure) },
        opts(),
        new AbortController().signal,
      ))
        seen.push(c);
    };
    await expect(run()).rejects.toBe(failure);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe('one\n');
    expect(seen[1]).toMatch(/^--- .*the container went away ---\n$/);
  });

  it('ends quietly when the request was aborted or the failure is an abort', async () => {
    const aborted = new AbortController();
    aborted.abort();
    const failure = new ProblemError('log_unavailable', 'x');
    const plain = await chunksOf(first, { ndjson: true });
    expect(await chunksOf(first, { ndjson: true }, false, failure, aborted.signal)).toEqual(plain);
    const abortError = Object.assign(new Error('stop'), { name: 'AbortError' });
    expect(await chunksOf(first, {}, false, abortError)).toEqual(['one\n']);
    const otherError = Object.assign(new Error('stop'), { name: 'TypeError' });
    expect((await chunksOf(first, { ndjson: true }, false, otherError)).length).toBe(2);
  });
});
