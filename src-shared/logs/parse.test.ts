import { describe, expect, it } from 'vitest';
import { levelFromNumber, normalizeLevel } from './level';
import { parseLogLine } from './parse';
import { compareTsText } from './time';
import type { LogLevel } from './types';

describe('kubelet timestamp prefix', () => {
  it('splits RFC3339Nano and keeps the exact text', () => {
    const e = parseLogLine('2026-11-22T10:00:00.123456789Z hello world', { timestamps: true });
    expect(e.tsText).toBe('2026-11-22T10:00:00.123456789Z');
    expect(e.ts).toBe(Date.UTC(2026, 10, 22, 10, 0, 0, 123));
    expect(e.raw).toBe('hello world');
    expect(e.message).toBe('hello world');
    expect(e.format).toBe('plain');
  });

  it('handles short fractions, offsets, empty bodies and CRLF', () => {
    expect(parseLogLine('2026-11-22T10:00:00.5Z x', { timestamps: true }).ts).toBe(
      Date.UTC(2026, 10, 22, 10, 0, 0, 500),
    );
    expect(parseLogLine('2026-11-22T12:00:00+02:00 x', { timestamps: true }).ts).toBe(
      Date.UTC(2026, 10, 22, 10),
    );
    const empty = parseLogLine('2026-11-22T10:00:00.000000001Z', { timestamps: true });
    expect(empty.tsText).toBe('2026-11-22T10:00:00.000000001Z');
    expect(empty.raw).toBe('');
    const crlf = parseLogLine('2026-11-22T10:00:00Z ERROR x\r\n', { timestamps: true });
    expect(crlf.raw).toBe('ERROR x');
    expect(crlf.level).toBe('ERROR');
  });

  it('leaves the line alone without the option or without a timestamp', () => {
    const a = parseLogLine('2026-11-22T10:00:00Z hello');
    expect(a.tsText).toBeUndefined();
    expect(a.raw).toBe('2026-11-22T10:00:00Z hello');
    const b = parseLogLine('not a timestamp', { timestamps: true });
    expect(b.tsText).toBeUndefined();
    expect(b.raw).toBe('not a timestamp');
  });

  it('prefers the kubelet time over the line time', () => {
    const e = parseLogLine('2026-11-22T10:00:00Z {"level":"info","ts":1700000000,"msg":"m"}', {
      timestamps: true,
    });
    expect(e.ts).toBe(Date.UTC(2026, 10, 22, 10));
    expect(e.fields?.ts).toBe('1700000000');
  });

  it('compares timestamp texts to the nanosecond', () => {
    expect(compareTsText('2026-11-22T10:00:00.123456789Z', '2026-11-22T10:00:00.123456790Z')).toBe(-1);
    expect(compareTsText('2026-11-22T10:00:00.1Z', '2026-11-22T10:00:00.100000000Z')).toBe(0);
    expect(compareTsText('2026-11-22T10:00:00.12Z', '2026-11-22T10:00:00.1Z')).toBe(1);
    expect(compareTsText('2026-11-22T12:00:00.5+02:00', '2026-11-22T10:00:00.4Z')).toBe(1);
  });
});

describe('JSON lines', () => {
  it('Go zap production JSON', () => {
    const e = parseLogLine(
      '{"level":"error","ts":1763805600.123456,"caller":"server/main.go:42","msg":"listen failed","error":"address in use","stacktrace":"main.main\\n\\t/app/main.go:42"}',
    );
    expect(e).toMatchObject({ format: 'json', level: 'ERROR', message: 'listen failed', ts: 1763805600123 });
    expect(e.fields?.caller).toBe('server/main.go:42');
  });

  it('pino numeric levels and epoch ms', () => {
    const line = (n: number) =>
      parseLogLine(`{"level":${n},"time":1763805600123,"pid":1,"hostname":"h","msg":"m"}`);
    expect(line(10).level).toBe('TRACE');
    expect(line(20).level).toBe('DEBUG');
    expect(line(30).level).toBe('INFO');
    expect(line(40).level).toBe('WARN');
    expect(line(50).level).toBe('ERROR');
    expect(line(60).level).toBe('ERROR');
    expect(line(30).ts).toBe(1763805600123);
    expect(line(30).fields?.pid).toBe('1');
  });

  it('severity, lvl, message and ISO time; nested values become JSON text', () => {
    const gcp = parseLogLine(
      '{"severity":"WARNING","message":"slow","timestamp":"2026-01-01T10:00:00.250Z","ctx":{"a":[1]},"n":null}',
    );
    expect(gcp).toMatchObject({ level: 'WARN', message: 'slow', ts: Date.UTC(2026, 0, 1, 10, 0, 0, 250) });
    expect(gcp.fields?.ctx).toBe('{"a":[1]}');
    expect(gcp.fields?.n).toBe('null');
    expect(parseLogLine('{"lvl":"dbg","msg":"x"}').level).toBe('DEBUG');
    expect(parseLogLine('{"level":"INFO","time":"2026-01-01T11:00:00+01:00"}').ts).toBe(
      Date.UTC(2026, 0, 1, 10),
    );
  });

  it('falls back to the whole line as message; no level → UNKNOWN', () => {
    const e = parseLogLine('{"a":1}');
    expect(e).toMatchObject({ format: 'json', level: 'UNKNOWN', message: '{"a":1}' });
  });

  it('is not fooled by brace-wrapped non-JSON', () => {
    expect(parseLogLine('{not json}').format).toBe('plain');
    expect(parseLogLine('{"a":1} trailing').format).toBe('plain');
  });
});

describe('logfmt lines', () => {
  it('logrus text format with quoted values and escapes', () => {
    const e = parseLogLine('time="2026-01-01T10:00:00Z" level=warning msg="quoted \\" text" component=api');
    expect(e).toMatchObject({
      format: 'logfmt',
      level: 'WARN',
      message: 'quoted " text',
      ts: Date.UTC(2026, 0, 1, 10),
    });
    expect(e.fields).toMatchObject({ component: 'api', time: '2026-01-01T10:00:00Z' });
  });

  it('go-kit style, bare keys, empty values and \\n escapes', () => {
    const e = parseLogLine('level=info ts=2026-01-01T10:00:00.5Z caller=main.go:12 msg="a\\nb" debug empty=');
    expect(e).toMatchObject({ format: 'logfmt', level: 'INFO', message: 'a\nb' });
    expect(e.fields).toMatchObject({ debug: '', empty: '', caller: 'main.go:12' });
  });

  it('slog text handler', () => {
    const e = parseLogLine(
      'time=2026-01-01T10:00:00.000Z level=ERROR source=/app/x.go:9 msg="db down" err=timeout',
    );
    expect(e).toMatchObject({ level: 'ERROR', message: 'db down', format: 'logfmt' });
  });

  it('does not claim prose or unterminated quotes', () => {
    expect(parseLogLine('x=1 is the answer').format).toBe('plain');
    expect(parseLogLine('msg="unterminated').format).toBe('plain');
    expect(parseLogLine('a=1 b=2').format).toBe('logfmt');
  });
});

describe('prefixed and plain lines', () => {
  const cases: Array<[string, LogLevel, string, string]> = [
    ['E1122 10:00:00.000000   1 file.go:12] boom', 'ERROR', 'boom', 'prefix'],
    [
      'I1122 10:00:00.000000   1 file.go:12] "Starting" controller="x"',
      'INFO',
      '"Starting" controller="x"',
      'prefix',
    ],
    ['W1122 10:00:00.000000       7 reflector.go:1] watch closed', 'WARN', 'watch closed', 'prefix'],
    ['F1122 10:00:00.000000   1 main.go:1] fatal', 'ERROR', 'fatal', 'prefix'],
    ['ERROR:root:boom', 'ERROR', 'root:boom', 'prefix'],
    ['WARNING:urllib3.connectionpool:Retrying', 'WARN', 'urllib3.connectionpool:Retrying', 'prefix'],
    ['2026-01-01 10:00:00.123 WARN [main] c.f.App - msg', 'WARN', '[main] c.f.App - msg', 'prefix'],
    ['2026-01-01 10:00:00 ERROR something', 'ERROR', 'something', 'prefix'],
    [
      '2026-01-01 10:00:00.123  INFO 1234 --- [main] c.f.App : started',
      'INFO',
      '1234 --- [main] c.f.App : started',
      'prefix',
    ],
    ['10:00:00.123 [main] DEBUG com.foo.Bar - dbg', 'DEBUG', 'com.foo.Bar - dbg', 'prefix'],
    ['2026/01/01 10:00:00 [error] 12#0: *1 open() failed', 'ERROR', '12#0: *1 open() failed', 'prefix'],
    ['[2026-01-01 10:00:00,123] [WARN] careful', 'WARN', 'careful', 'prefix'],
    ['[INFO] ok', 'INFO', 'ok', 'prefix'],
    ['[trace] deep', 'TRACE', 'deep', 'prefix'],
    ['<notice> hi', 'INFO', 'hi', 'prefix'],
    ['[E] short', 'ERROR', 'short', 'prefix'],
    ['INFO starting up', 'INFO', 'starting up', 'prefix'],
    ['Error: connect ECONNREFUSED 10.0.0.1:5432', 'ERROR', 'connect ECONNREFUSED 10.0.0.1:5432', 'prefix'],
    ['panic: runtime error: index out of range', 'ERROR', 'runtime error: index out of range', 'prefix'],
    ['2026-01-01T10:00:00Z debug verbose stuff', 'DEBUG', 'verbose stuff', 'prefix'],
    [
      '10.0.0.1 - - [22/Nov/2026:10:00:00 +0000] "GET /healthz HTTP/1.1" 200 2 "-" "kube-probe/1.31"',
      'UNKNOWN',
      '10.0.0.1 - - [22/Nov/2026:10:00:00 +0000] "GET /healthz HTTP/1.1" 200 2 "-" "kube-probe/1.31"',
      'plain',
    ],
    ['Notice that this is prose', 'UNKNOWN', 'Notice that this is prose', 'plain'],
    ['Alert sent to user', 'UNKNOWN', 'Alert sent to user', 'plain'],
    ['I think so', 'UNKNOWN', 'I think so', 'plain'],
    ['\tat com.foo.Bar.baz(Bar.java:10)', 'UNKNOWN', '\tat com.foo.Bar.baz(Bar.java:10)', 'plain'],
    ['GET /index.html 200', 'UNKNOWN', 'GET /index.html 200', 'plain'],
    ['', 'UNKNOWN', '', 'plain'],
  ];
  it.each(cases)('%s', (line, level, message, format) => {
    const e = parseLogLine(line);
    expect(e.level).toBe(level);
    expect(e.message).toBe(message);
    expect(e.format).toBe(format);
    expect(e.raw).toBe(line);
  });

  it('takes ts from a zoned leading timestamp but never from a zone-less one', () => {
    expect(parseLogLine('2026-01-01T10:00:00.5Z INFO x').ts).toBe(Date.UTC(2026, 0, 1, 10, 0, 0, 500));
    expect(parseLogLine('2026-01-01T10:00:00Z just text').ts).toBe(Date.UTC(2026, 0, 1, 10));
    expect(parseLogLine('2026-01-01 10:00:00 ERROR x').ts).toBeUndefined();
  });

  it('every entry has the same property order (one hidden class)', () => {
    const keys = ['{"msg":"a"}', 'a=1 b=2', 'ERROR x', 'plain'].map((l) =>
      Object.keys(parseLogLine(l)).join(),
    );
    expect(new Set(keys).size).toBe(1);
  });
});

describe('level normalisation', () => {
  const table: Array<[string, LogLevel]> = [
    ['error', 'ERROR'],
    ['ERR', 'ERROR'],
    ['Fatal', 'ERROR'],
    ['panic', 'ERROR'],
    ['CRITICAL', 'ERROR'],
    ['crit', 'ERROR'],
    ['alert', 'ERROR'],
    ['emerg', 'ERROR'],
    ['E', 'ERROR'],
    ['warn', 'WARN'],
    ['Warning', 'WARN'],
    ['w', 'WARN'],
    ['info', 'INFO'],
    ['Information', 'INFO'],
    ['NOTICE', 'INFO'],
    ['I', 'INFO'],
    ['debug', 'DEBUG'],
    ['dbg', 'DEBUG'],
    ['D', 'DEBUG'],
    ['TRACE', 'TRACE'],
    [' info ', 'INFO'],
    ['inf', 'UNKNOWN'],
    ['x', 'UNKNOWN'],
    ['', 'UNKNOWN'],
    ['error!', 'UNKNOWN'],
    ['informational', 'UNKNOWN'],
  ];
  it.each(table)('%s → %s', (word, level) => {
    expect(normalizeLevel(word)).toBe(level);
    expect(parseLogLine(`{"level":${JSON.stringify(word)}}`).level).toBe(level);
  });

  it('numeric levels outside 10..60 are UNKNOWN', () => {
    expect(levelFromNumber(5)).toBe('UNKNOWN');
    expect(levelFromNumber(70)).toBe('UNKNOWN');
    expect(levelFromNumber(35)).toBe('INFO');
  });
});
