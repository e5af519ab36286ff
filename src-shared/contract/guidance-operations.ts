import { z } from 'zod';
import { defineOperation } from './define';
import { guidanceEntry, guidanceSubject } from './guidance-models';
import { pageQuery } from './params';

const none = z.strictObject({});

/** The troubleshooting knowledge base, for scripts as well as the UI. Needs no cluster. */
export const guidanceOperations = {
  listGuidance: defineOperation({
    method: 'GET',
    path: '/v1/guidance',
    summary: 'Every explanation Skiff knows: meaning, likely causes and first checks.',
    auth: 'credential',
    params: none,
    query: z.strictObject({ subject: guidanceSubject.optional(), ...pageQuery }),
    body: z.undefined(),
    result: z.array(guidanceEntry),
    paginated: true,
  }),

  getGuidance: defineOperation({
    method: 'GET',
    path: '/v1/guidance/:reason',
    summary: 'The explanation of one reason, phase or condition (case-insensitive), e.g. CrashLoopBackOff.',
    auth: 'credential',
    params: z.strictObject({ reason: z.string().min(1).max(128) }),
    query: z.strictObject({ subject: guidanceSubject.optional() }),
    body: z.undefined(),
    result: guidanceEntry,
    paginated: false,
  }),
} as const;
