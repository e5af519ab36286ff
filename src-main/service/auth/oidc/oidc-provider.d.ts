/**
 * The part of oidc-provider 9.x (MIT) the tests use to run a real OpenID Provider in the test
 * process; 9.x ships no types of its own. Only what provider.test-support.ts touches is declared,
 * so a major upgrade that changes it fails the type check instead of a test at run time.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface ProviderAccount {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  export interface ProviderContext {
    path: string;
    method: string;
    status: number;
    body: unknown;
  }

  export interface ProviderClient {
    clientId: string;
    grantTypeAllowed(type: string): boolean;
  }

  export type ProviderMiddleware = (ctx: ProviderContext, next: () => Promise<void>) => Promise<void>;

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly issuer: string;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(fn: ProviderMiddleware): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
  export default Provider;
}
