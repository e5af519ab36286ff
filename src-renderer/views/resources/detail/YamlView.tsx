import { useMemo, useState } from 'react';
import { stringify } from 'yaml';
import type { KubeObject } from '../../../../src-shared/contract/models';

/** The manifest as YAML (managedFields already removed by the service), with a copy button. */
export function YamlView({ obj }: { obj: KubeObject }) {
  const text = useMemo(() => stringify(obj, { lineWidth: 0 }), [obj]);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // Clipboard access can be refused (insecure origin, permissions); selecting the text still works.
    }
  };
  return (
    <div className="yaml">
      <div className="yaml-bar">
        <button type="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy YAML'}
        </button>
      </div>
      <pre className="yaml-text">
        <code>{text}</code>
      </pre>
    </div>
  );
}
