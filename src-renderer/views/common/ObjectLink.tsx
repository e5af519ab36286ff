import type { ReactNode } from 'react';
import { useRoute } from '../../state/route';

/**
 * A button, styled as a link, that opens one object in the detail pane: any kind the cluster serves,
 * by resourceType, name and (for a namespaced kind) namespace. An empty namespace is no namespace.
 */
export function ObjectLink({
  kind,
  name,
  namespace,
  children,
}: {
  kind: string;
  name: string;
  namespace?: string | undefined;
  children: ReactNode;
}) {
  const select = useRoute((s) => s.select);
  return (
    <button
      type="button"
      className="link"
      onClick={() => select({ kind, name, ...(namespace ? { namespace } : {}) })}
    >
      {children}
    </button>
  );
}
