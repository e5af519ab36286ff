import findMyWay, { type HTTPVersion } from 'find-my-way';
import type { HttpMethod } from '../../../src-shared/contract/define';
import { type OperationName, operationNames, operations } from '../../../src-shared/contract/operations';

export interface RouteMatch {
  name: OperationName;
  params: Record<string, string>;
}

export interface ApiRouter {
  match(method: string, path: string): RouteMatch | { allowed: HttpMethod[] } | null;
}

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Builds the router from the contract table, so a route exists exactly when an operation does. */
export function createApiRouter(): ApiRouter {
  const router = findMyWay<HTTPVersion.V1>({
    ignoreTrailingSlash: true,
    caseSensitive: true,
    maxParamLength: 500,
  });
  for (const name of operationNames) {
    const spec = operations[name];
    router.on(spec.method, spec.path, () => {}, { name });
  }
  return {
    match(method, path) {
      const upper = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
      const found = METHODS.includes(upper as HttpMethod) ? router.find(upper as HttpMethod, path) : null;
      if (found) {
        const params: Record<string, string> = {};
        for (const [k, v] of Object.entries(found.params)) if (v !== undefined) params[k] = v;
        return { name: (found.store as { name: OperationName }).name, params };
      }
      const allowed = METHODS.filter((m) => router.find(m, path) !== null);
      return allowed.length > 0 ? { allowed } : null;
    },
  };
}
