import { useId } from 'react';
import { parseSelector } from '../../../src-shared/kube/selector';

export type SelectorCheck = { ok: true } | { ok: false; requirement: string; message: string };

export function checkSelector(text: string): SelectorCheck {
  if (text.trim() === '') return { ok: true };
  const r = parseSelector(text);
  return r.ok ? { ok: true } : { ok: false, requirement: r.requirement, message: r.message };
}

/**
 * The labelSelector box. It parses with the same grammar the service uses as the person types, and
 * names the requirement that is wrong, so a typo in a long selector is found without a round trip.
 * Only a valid selector is ever sent.
 */
export function SelectorBox({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const id = useId();
  const check = checkSelector(value);
  return (
    <div className="field selector-box">
      <label htmlFor={id}>Label selector</label>
      <input
        id={id}
        type="text"
        value={value}
        placeholder="app=web,tier in (frontend,api),!canary"
        spellCheck={false}
        autoComplete="off"
        aria-invalid={!check.ok}
        aria-describedby={`${id}-msg`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p
        id={`${id}-msg`}
        className={check.ok ? 'field-hint' : 'field-error'}
        role={check.ok ? undefined : 'alert'}
      >
        {check.ok ? (
          'key=value, key!=value, key in (a,b), key notin (a,b), key, !key; comma-separated'
        ) : (
          <>
            In <code>{check.requirement || '(empty requirement)'}</code>: {check.message}
          </>
        )}
      </p>
    </div>
  );
}
