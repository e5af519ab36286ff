import type { ExitCodeExplanation } from '../../../src-shared/guidance';

/** An exit code in words: "137 — killed by SIGKILL (often the OOM killer)". */
export function ExitCodeNote({ exit }: { exit: ExitCodeExplanation }) {
  return (
    <div className="exit-code" data-testid="exit-code">
      <p>
        <strong>Exit code {exit.code}</strong>
        {exit.signalName ? ` (${exit.signalName})` : ''}: {exit.title}
      </p>
      <p>{exit.meaning}</p>
      {exit.causes.length > 0 && (
        <ul>
          {exit.causes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
