/**
 * Who a request is, as the apiserver's authenticators decide it: a client certificate the
 * cluster's CA signed (the user is its CN), else a bearer token the cluster knows. A certificate
 * the CA did not sign authenticates nobody and the token is tried instead, as the x509
 * authenticator falls through to the next one. Tokens can be added and removed while running,
 * so tests can make an exec plugin's token valid or revoke one.
 */

import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

export class SimAuth {
  readonly tokens: Set<string>;
  /** Every user that authenticated, so a test can tell which credential a request carried. */
  readonly seenUsers = new Set<string>();

  constructor(tokens: Iterable<string>) {
    this.tokens = new Set(tokens);
  }

  /** The authenticated user, or null for an anonymous request. */
  userOf(req: IncomingMessage): string | null {
    const socket = req.socket as Partial<TLSSocket>;
    if (socket.encrypted && socket.authorized && socket.getPeerCertificate) {
      const cn = socket.getPeerCertificate().subject?.CN;
      const user = Array.isArray(cn) ? cn[0] : cn;
      if (user) return this.seen(user);
    }
    const header = req.headers.authorization;
    if (header?.startsWith('Bearer ')) {
      const token = header.slice('Bearer '.length).trim();
      if (this.tokens.has(token)) return this.seen(`token:${token.slice(0, 6)}`);
    }
    return null;
  }

  private seen(user: string): string {
    this.seenUsers.add(user);
    return user;
  }
}
