/**
 * create (POST to a collection) and delete (DELETE of one object), for every kind the store keeps
 * and whose verbs name them: enough for a test or a demo to add a CustomResourceDefinition at run
 * time and see its kind served, or to add and remove objects as kubectl would. Answers and errors
 * are the apiserver's: 201 with the stored object, 409 AlreadyExists, 422 Invalid, 400 for a body
 * that is not the kind the path names, 413 past the apiserver's 3 MiB request limit.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { CRD_GROUP, CRD_KIND, crdSpec } from './crds';
import { objectJson } from './present';
import { apiVersionOf, isStored, type ResourceDef } from './resources';
import {
  badRequest,
  invalid,
  methodNotAllowed,
  notFound,
  type Sent,
  sendRaw,
  sendStatus,
  status,
} from './status';
import type { SimStore } from './store';
import { objectKey } from './table';
import type { KubeObject } from './types';

const MAX_BODY = 3 * 1024 * 1024;

/** The request body as text, or undefined past the apiserver's 3 MiB limit. */
export async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function alreadyExists(def: ResourceDef, name: string) {
  const what = def.group ? `${def.resource}.${def.group}` : def.resource;
  return status(409, 'AlreadyExists', `${what} "${name}" already exists`, {
    name,
    ...(def.group ? { group: def.group } : {}),
    kind: def.resource,
  });
}

export async function createObject(
  req: IncomingMessage,
  res: ServerResponse,
  store: SimStore,
  def: ResourceDef,
  namespace: string | undefined,
): Promise<Sent> {
  if (!def.verbs.includes('create') || !isStored(def) || def.storage || (def.namespaced && !namespace)) {
    return sendStatus(res, methodNotAllowed('POST', def));
  }
  const text = await readBody(req);
  if (text === undefined)
    return sendStatus(res, status(413, 'RequestEntityTooLarge', 'request entity too large'));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return sendStatus(res, badRequest(`the body of the request was in an unknown format: ${String(err)}`));
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return sendStatus(res, badRequest('the body of the request must be a JSON object'));
  }
  const obj = body as KubeObject;
  const expected = apiVersionOf(def);
  if (obj.apiVersion !== expected || obj.kind !== def.kind) {
    return sendStatus(
      res,
      badRequest(
        `the API version in the data (${String(obj.apiVersion)}) and kind (${String(obj.kind)}) do not match the expected ${expected} ${def.kind}`,
      ),
    );
  }
  const meta = (typeof obj.metadata === 'object' && obj.metadata !== null ? obj.metadata : {}) as Partial<
    KubeObject['metadata']
  >;
  const name = meta.name ?? '';
  if (name === '')
    return sendStatus(
      res,
      invalid(def.kind, '', [
        { field: 'metadata.name', message: 'Required value: name or generateName is required' },
      ]),
    );
  if (meta.namespace !== undefined && meta.namespace !== namespace && def.namespaced) {
    return sendStatus(
      res,
      badRequest('the namespace of the provided object does not match the namespace sent on the request'),
    );
  }
  if (def.group === CRD_GROUP && def.kind === CRD_KIND) {
    const checked = crdSpec({ ...obj, metadata: { ...meta, name } } as KubeObject);
    if (!checked.ok)
      return sendStatus(res, invalid(def.kind, name, [{ field: checked.field, message: checked.message }]));
  }
  if (store.table(def.key).get(objectKey(def.namespaced ? namespace : undefined, name))) {
    return sendStatus(res, alreadyExists(def, name));
  }
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, ...kept } = meta;
  const stored = store.upsert({
    ...obj,
    metadata: { ...kept, name, ...(def.namespaced ? { namespace } : {}) },
  } as KubeObject);
  return sendRaw(res, 201, objectJson(def, stored));
}

export function deleteObject(
  res: ServerResponse,
  store: SimStore,
  def: ResourceDef,
  namespace: string | undefined,
  name: string,
): Sent {
  if (!def.verbs.includes('delete') || !isStored(def) || def.storage) {
    return sendStatus(res, methodNotAllowed('DELETE', def));
  }
  const ns = def.namespaced ? namespace : undefined;
  const obj = store.peek(def.key, objectKey(ns, name));
  if (!obj) return sendStatus(res, notFound(def, name));
  if (ns) store.remove(def.key, ns, name);
  else store.remove(def.key, name);
  return sendRaw(res, 200, objectJson(def, obj));
}
