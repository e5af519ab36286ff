import findMyWay, { type HTTPVersion } from 'find-my-way';
import type { HttpMethod } from '../../../src-shared/contract/define';
import { type OperationName, operationNames, operations } from '../../../src-shared/contract/operations';

export interface RouteMatch {
  name: OperationName;
  params: Record<string, string>;
}

export interface ApiRouter {
  /** `query` picks among operations sharing a method and path (OperationSpec.when). */
  match(method: string, path: string, query?: URLSearchParams): RouteMatch | { allowed: HttpMethod[] } | null;
}

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Builds the router from the contract table, so a route exists exactly when an operation does. */
export function createApiRouter(): ApiRouter {
  const router = findMyWay<HTTPVersion.V1>({
    ignoreTrailingSlash: true,
    caseSensitive: true,
    maxParamLength: 500,
  });
  // Operations that share a method and path (the event list and its watch) share one route; the
  // ones with a `when` are tried first, in table order, and the one without answers otherwise.
  const shared = new Map<string, OperationName[]>();
  for (const name of operationNames) {
    const spec = operations[name];
    const key = `${spec.method} ${spec.path}`;
    const names = shared.get(key);
    if (names) {
      names.push(name);
      names.sort(
        (a, b) => Number(operations[a].when === undefined) - Number(operations[b].when === undefined),
      );
      continue;
    }
    const route = [name];
    shared.set(key, route);
    router.on(spec.method, spec.path, () => {}, { names: route });
  }
  const pick = (names: readonly OperationName[], query: URLSearchParams | undefined): OperationName =>
    names.find((n) => {
      const when = operations[n].when;
      if (when === undefined) return true;
      return when.equals === undefined
        ? query?.has(when.query) === true
        : query?.get(when.query) === when.equals;
    }) ?? names[names.length - 1]!;
  return {
    match(method, path, query) {
      const upper = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
      const found = METHODS.includes(upper as HttpMethod) ? router.find(upper as HttpMethod, path) : null;
      if (found) {
        const params: Record<string, string> = {};
        for (const [k, v] of Object.entries(found.params)) if (v !== undefined) params[k] = v;
        return { name: pick((found.store as { names: OperationName[] }).names, query), params };
      }
      const allowed = METHODS.filter((m) => router.find(m, path) !== null);
      return allowed.length > 0 ? { allowed } : null;
    },
  };
}
