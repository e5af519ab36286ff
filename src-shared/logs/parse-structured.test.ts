import { describe, expect, it } from 'vitest';
import { parseLogLine } from './parse';

const T = Date.UTC(2026, 10, 22, 10, 11, 12);

describe('JSON vs logfmt vs plain lines', () => {
  it('only a JSON object between braces, blanks around allowed, is a JSON line', () => {
    expect(parseLogLine('  \t{"level":"warn","msg":"m"} \t')).toMatchObject({
      format: 'json',
      level: 'WARN',
      message: 'm',
    });
    // Brace-wrapped text that is no JSON, and a JSON value that is no object, are not JSON lines.
    expect(parseLogLine('{not json} WARN').format).not.toBe('json');
    expect(parseLogLine('{"a":1} trailing').format).not.toBe('json');
    expect(parseLogLine('{"a":1').format).not.toBe('json');
    expect(parseLogLine('[{"level":"error"}]').format).not.toBe('json');
  });

  it('a logfmt line may start after blanks; a line with a key but no credible logfmt is not logfmt', () => {
    expect(parseLogLine('  level=error msg=boom')).toMatchObject({
      format: 'logfmt',
      level: 'ERROR',
      message: 'boom',
    });
    expect(parseLogLine('hello world=1').format).toBe('plain');
    expect(parseLogLine('WARN x=1 disk').format).toBe('prefix');
  });
});

describe('field extraction', () => {
  it('JSON values that are not strings become text: numbers, booleans and null as such, objects as JSON', () => {
    const e = parseLogLine('{"msg":"m","n":3,"b":false,"z":null,"o":{"a":[1,"x"]},"arr":[1,2],"s":"t"}');
    expect(e.fields).toEqual({
      msg: 'm',
      n: '3',
      b: 'false',
      z: 'null',
      o: '{"a":[1,"x"]}',
      arr: '[1,2]',
      s: 't',
    });
  });

  it('the first level field present wins, in the order level, severity, lvl, log.level, levelname', () => {
    expect(parseLogLine('{"levelname":"DEBUG","severity":"error","level":"warn"}').level).toBe('WARN');
    expect(parseLogLine('{"levelname":"DEBUG","severity":"error"}').level).toBe('ERROR');
    expect(parseLogLine('{"log.level":"debug","levelname":"error"}').level).toBe('DEBUG');
    // A level field of another type is passed over.
    expect(parseLogLine('{"level":true,"severity":"error"}').level).toBe('ERROR');
    expect(parseLogLine('{"level":50}').level).toBe('ERROR');
    expect(parseLogLine('lvl=warn severity=error').level).toBe('ERROR');
    expect(parseLogLine('msg=x ts=1').level).toBe('UNKNOWN');
  });

  it('the first time field present gives the time, in the order time, ts, timestamp, @timestamp', () => {
    expect(parseLogLine('{"@timestamp":"2020-01-01T00:00:00Z","ts":"2026-11-22T10:11:12Z"}').ts).toBe(T);
    expect(parseLogLine('{"@timestamp":"2026-11-22T10:11:12Z"}').ts).toBe(T);
    // Present but unreadable: no time, and later keys are not consulted.
    expect(parseLogLine('{"time":"soon","ts":"2026-11-22T10:11:12Z"}').ts).toBeUndefined();
    expect(parseLogLine('timestamp=2026-11-22T10:11:12Z msg=m').ts).toBe(T);
    expect(parseLogLine('level=info msg=m').ts).toBeUndefined();
    expect(parseLogLine('time=later ts=2026-11-22T10:11:12Z msg=m').ts).toBeUndefined();
  });

  it('the message is msg, else message, else the whole line', () => {
    expect(parseLogLine('{"message":"b","msg":"a"}').message).toBe('a');
    expect(parseLogLine('{"message":"b"}').message).toBe('b');
    expect(parseLogLine('level=info message=b').message).toBe('b');
    expect(parseLogLine('level=info x=1').message).toBe('level=info x=1');
  });
});
