import { describe, expect, it } from 'vitest';
import { ACTIVITY_CSV_COLUMNS, ACTIVITY_CSV_HEADER, activityCsvLines, csvCell } from './activity-export';
import type { ActivityEntry, ClientDescription } from './auth-models';

/**
 * The activity log's CSV export (RFC 4180, formula-safe), shared by the service's export and the
 * Security view's "Export CSV".
 */

const client = (over: Partial<ClientDescription> = {}): ClientDescription => ({
  clientType: 'browser',
  device: { type: 'mobile', vendor: 'Google', model: 'Pixel 8' },
  browser: { name: 'Chrome', version: '126' },
  os: { name: 'Android', version: '14' },
  location: {
    kind: 'public',
    label: 'Zurich',
    city: 'Zurich',
    region: null,
    country: 'Switzerland',
    countryCode: 'CH',
    network: '203.0.113.0/24',
  },
  ...over,
});

const entry = (over: Partial<ActivityEntry> = {}): ActivityEntry => ({
  activityId: 'act-7',
  type: 'login',
  at: '2026-03-01T09:00:00.000Z',
  accountId: 'acc-2',
  username: 'maria',
  sessionId: 'ses-4',
  apiKeyId: null,
  by: null,
  client: null,
  detail: null,
  ...over,
});

/** One exported line, split into its cells by column name (no cell of these fixtures is quoted). */
function row(e: ActivityEntry): Record<string, string> {
  const text = activityCsvLines([e]);
  expect(text.endsWith('\r\n')).toBe(true);
  const cells = text.slice(0, -2).split(',');
  expect(cells).toHaveLength(ACTIVITY_CSV_COLUMNS.length);
  return Object.fromEntries(ACTIVITY_CSV_COLUMNS.map((c, i) => [c, cells[i]!]));
}

describe('cells', () => {
  it('a missing or empty value is an empty cell', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('')).toBe('');
  });

  it('a plain value is written as it is, also with a formula character inside it', () => {
    expect(csvCell('maria')).toBe('maria');
    expect(csvCell('build-bot @ ci')).toBe('build-bot @ ci');
    expect(csvCell('a=b+c')).toBe('a=b+c');
  });

  it('a value holding a comma, a quote or a line break is quoted, its quotes doubled', () => {
    expect(csvCell('Zurich, Switzerland')).toBe('"Zurich, Switzerland"');
    expect(csvCell('the "deploy" key')).toBe('"the ""deploy"" key"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('ends\r')).toBe('"ends\r"');
  });

  it('a value starting like a spreadsheet formula is prefixed with an apostrophe', () => {
    for (const start of ['=', '+', '-', '@', '\t']) {
      expect(csvCell(`${start}SUM(A1)`)).toBe(`'${start}SUM(A1)`);
    }
    // A leading CR is also a line break: prefixed, then quoted.
    expect(csvCell('\rcmd')).toBe(`"'\rcmd"`);
  });

  it('a formula that also needs quotes is prefixed inside the quotes', () => {
    expect(csvCell('=HYPERLINK("x","y")')).toBe(`"'=HYPERLINK(""x"",""y"")"`);
  });
});

describe('rows', () => {
  it('the header names every column in order, comma-separated, ending in CRLF', () => {
    expect(ACTIVITY_CSV_HEADER).toBe(
      'at,type,accountId,username,sessionId,apiKeyId,byAccountId,byUsername,bySessionId,clientType,device,browser,os,location,detail,activityId\r\n',
    );
  });

  it('each entry is one CRLF-ended line, in the order given, with no header', () => {
    const a = entry({ activityId: 'act-9', at: '2026-03-02T00:00:00.000Z' });
    const b = entry({ activityId: 'act-3', at: '2026-03-01T00:00:00.000Z', type: 'logout' });
    const text = activityCsvLines([a, b]);
    const lines = text.split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines[0]!.startsWith('2026-03-02T00:00:00.000Z,login,')).toBe(true);
    expect(lines[0]!.endsWith(',act-9')).toBe(true);
    expect(lines[1]!.startsWith('2026-03-01T00:00:00.000Z,logout,')).toBe(true);
    expect(lines[1]!.endsWith(',act-3')).toBe(true);
    expect(activityCsvLines([])).toBe('');
  });

  it('an entry without actor or client leaves those cells empty', () => {
    expect(row(entry({ apiKeyId: 'key-1', detail: 'via curl' }))).toEqual({
      at: '2026-03-01T09:00:00.000Z',
      type: 'login',
      accountId: 'acc-2',
      username: 'maria',
      sessionId: 'ses-4',
      apiKeyId: 'key-1',
      byAccountId: '',
      byUsername: '',
      bySessionId: '',
      clientType: '',
      device: '',
      browser: '',
      os: '',
      location: '',
      detail: 'via curl',
      activityId: 'act-7',
    });
  });

  it('who did it fills the by columns', () => {
    const r = row(entry({ by: { accountId: 'acc-admin', username: 'root', sessionId: 'ses-9' } }));
    expect([r.byAccountId, r.byUsername, r.bySessionId]).toEqual(['acc-admin', 'root', 'ses-9']);
  });

  it('the client is given as its type, device, browser, system and location label', () => {
    const r = row(entry({ client: client() }));
    expect(r).toMatchObject({
      clientType: 'browser',
      device: 'Google Pixel 8',
      browser: 'Chrome 126',
      os: 'Android 14',
      location: 'Zurich',
    });
  });

  it('missing parts of a name and version are left out, without stray spaces', () => {
    const r = row(
      entry({
        client: client({
          device: { type: 'mobile', vendor: null, model: 'Pixel 8' },
          browser: { name: 'curl', version: '' },
          os: { name: null, version: '14' },
        }),
      }),
    );
    expect([r.device, r.browser, r.os]).toEqual(['Pixel 8', 'curl', '14']);
  });

  it('a device with neither vendor nor model is given by its type', () => {
    const r = row(entry({ client: client({ device: { type: 'desktop', vendor: null, model: '' } }) }));
    expect(r.device).toBe('desktop');
  });

  it('a user-chosen text is written formula-safe and quoted in its row', () => {
    const text = activityCsvLines([entry({ detail: '=cmd|calc, "x"' })]);
    expect(text).toContain(`,"'=cmd|calc, ""x""",act-7\r\n`);
  });
});
