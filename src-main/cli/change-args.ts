/**
 * `--record-changes viewed|all|off` (else $SKIFF_RECORD_CHANGES, default viewed) and
 * `--record-noisy-kinds` (else $SKIFF_RECORD_NOISY_KINDS=1|true): which object changes are
 * recorded (service/history/changes/options.ts).
 *
 * Rules: the flag wins over the variable; an empty variable is unset; a bad value is refused with a
 * message naming what is accepted (the caller adds USAGE).
 */
import {
  type ChangeHistoryOptions,
  RECORD_CHANGES_MODES,
  type RecordChangesMode,
} from '../service/history/changes/options';

export const CHANGE_FLAGS = {
  'record-changes': { type: 'string' },
  'record-noisy-kinds': { type: 'boolean' },
} as const;

export function changeArgs(
  values: { 'record-changes'?: string | undefined; 'record-noisy-kinds'?: boolean | undefined },
  env: { recordChanges?: string | undefined; recordNoisyKinds?: string | undefined } = {},
): ChangeHistoryOptions {
  const [mode, source] =
    values['record-changes'] !== undefined
      ? [values['record-changes'], '--record-changes']
      : [env.recordChanges || undefined, 'SKIFF_RECORD_CHANGES'];
  if (mode !== undefined && !RECORD_CHANGES_MODES.includes(mode as RecordChangesMode))
    throw new Error(`${source} must be viewed, all or off (got ${JSON.stringify(mode)})`);
  const noisyEnv = env.recordNoisyKinds || undefined;
  if (noisyEnv !== undefined && !['1', 'true', '0', 'false'].includes(noisyEnv))
    throw new Error(`SKIFF_RECORD_NOISY_KINDS must be 1, true, 0 or false (got ${JSON.stringify(noisyEnv)})`);
  const noisy =
    values['record-noisy-kinds'] ??
    (noisyEnv === undefined ? undefined : noisyEnv === '1' || noisyEnv === 'true');
  return {
    ...(mode !== undefined ? { record: mode as RecordChangesMode } : {}),
    ...(noisy !== undefined ? { recordNoisyKinds: noisy } : {}),
  };
}
