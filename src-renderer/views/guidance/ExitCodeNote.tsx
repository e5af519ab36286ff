import type { ExitCodeExplanation } from '../../../src-shared/guidance';

/** An exit code in words: "137 (SIGKILL): killed", its meaning, and the usual causes folded away. */
export function ExitCodeNote({ exit }: { exit: ExitCodeExplanation }) {
  return (
    <div className="exit-code" data-testid="exit-code">
      <p>
        <strong>Exit code {exit.code}</strong>
        {exit.signalName ? ` (${exit.signalName})` : ''} — {exit.meaning}
      </p>
      {exit.causes.length > 0 && (
        <details>
          <summary>What usually causes exit {exit.code}</summary>
          <ul>
            {exit.causes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
