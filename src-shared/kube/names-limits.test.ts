import { describe, expect, it } from 'vitest';
import { isDns1035Label, validateResourceName } from './names';

describe('RFC 1035 labels (service names)', () => {
  it('may be 63 characters long, not 64', () => {
    expect(isDns1035Label(`a${'b'.repeat(62)}`)).toBe(true);
    expect(isDns1035Label(`a${'b'.repeat(63)}`)).toBe(false);
    expect(validateResourceName('service', 'w'.repeat(63))).toBeNull();
    expect(validateResourceName('service', 'w'.repeat(64))).toMatch(/RFC 1035 label/);
  });
});

describe('validateResourceName: the kind', () => {
  it('is read regardless of case and surrounding spaces', () => {
    // A service name must start with a letter; a pod name need not.
    expect(validateResourceName(' Service ', '1web')).toMatch(/invalid service name "1web": .*RFC 1035/);
    expect(validateResourceName('\tNAMESPACE\n', 'a.b')).toMatch(/RFC 1123 label/);
    expect(validateResourceName(' CronJob ', 'c'.repeat(53))).toMatch(/52 characters/);
  });
});

describe('validateResourceName: jobs and cronjobs', () => {
  it('a cronjob name must first be a DNS subdomain, whatever its length', () => {
    expect(validateResourceName('cronjob', 'Nightly')).toMatch(/RFC 1123 subdomain/);
    expect(validateResourceName('cronjob', 'night_ly')).toMatch(/RFC 1123 subdomain/);
    expect(validateResourceName('cronjob', 'nightly.backup')).toBeNull();
  });

  it('a job name must first be a DNS subdomain, whatever its length', () => {
    expect(validateResourceName('job', 'Migrate')).toMatch(/RFC 1123 subdomain/);
    expect(validateResourceName('job', '-migrate')).toMatch(/RFC 1123 subdomain/);
    expect(validateResourceName('job', 'db.migrate')).toBeNull();
  });

  it('a job name may be 63 characters long (the job-name label limit), not 64', () => {
    expect(validateResourceName('job', 'j'.repeat(63))).toBeNull();
    expect(validateResourceName('job', 'j'.repeat(64))).toMatch(/no more than 63 characters/);
    // Other kinds named by a subdomain allow far longer names.
    expect(validateResourceName('deployment', 'j'.repeat(64))).toBeNull();
  });
});
