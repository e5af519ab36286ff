import { useMemo } from 'react';
import type { KubeObject } from '../../../src-shared/contract/models';
import type { Polled } from '../../hooks/usePolling';
import { Empty, Loading, ProblemNotice } from '../common/Problem';
import { type FieldChange, formatValue, versionDiff } from './version-diff';

/**
 * The diff of two versions of one object, field by field (version-diff.ts): each changed field's
 * path, what it was (struck out) and what it became. Rules: presentational (the tab fetches both
 * versions); the old and new values are `del` and `ins` with words for a screen reader, so the diff
 * does not rest on colour; a version Skiff had none of (null) reads as "nothing", so a creation is
 * every field added.
 */

function Value({ value, as: Tag, word }: { value: unknown; as: 'del' | 'ins'; word: string }) {
  const text = formatValue(value);
  return (
    <Tag className={`diff-value diff-${Tag}`}>
      <span className="sr-only">{word} </span>
      {text.includes('\n') ? <pre>{text}</pre> : <code>{text}</code>}
    </Tag>
  );
}

function Entry({ change }: { change: FieldChange }) {
  return (
    <li className="diff-entry" data-kind={change.kind}>
      <code className="diff-path">{change.path}</code> <span className="muted diff-kind">{change.kind}</span>
      {change.kind !== 'added' && <Value value={change.before} as="del" word="was" />}
      {change.kind !== 'removed' && <Value value={change.after} as="ins" word="now" />}
    </li>
  );
}

export function VersionDiff({
  before,
  after,
}: {
  before: Polled<KubeObject | null>;
  after: Polled<KubeObject | null>;
}) {
  const ready = before.data !== undefined && after.data !== undefined;
  const changes = useMemo(
    () => (ready ? versionDiff(before.data ?? undefined, after.data ?? undefined) : []),
    [ready, before.data, after.data],
  );
  const error = before.error ?? after.error;
  if (!ready) {
    if (error) {
      const again = () => {
        if (before.error) before.reload();
        if (after.error) after.reload();
      };
      return (
        <ProblemNotice error={error} what="the versions to compare" retrying={false}>
          <button type="button" onClick={again}>
            Try again
          </button>
        </ProblemNotice>
      );
    }
    return <Loading label="Loading the two versions…" />;
  }
  if (before.data === null && after.data === null) {
    return <Empty>Skiff has no recorded version of this object at either moment.</Empty>;
  }
  return (
    <div className="diff" data-testid="history-diff">
      {before.data === null && (
        <p className="muted">No earlier version was recorded, so every field is new.</p>
      )}
      {after.data === null && <p className="muted">No later version was recorded: the object was gone.</p>}
      {changes.length === 0 ? (
        <Empty>The two versions are the same (apart from their resourceVersion).</Empty>
      ) : (
        <>
          <p className="muted">
            {changes.length === 1 ? '1 field changed' : `${changes.length} fields changed`}
          </p>
          <ul className="diff-list">
            {changes.map((c) => (
              <Entry key={`${c.kind}:${c.path}`} change={c} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
