/**
 * create (POST to a collection), replace (PUT of one object) and delete (DELETE of one object), for
 * every kind the store keeps and whose verbs name them: enough for a test or a demo to add a
 * CustomResourceDefinition at run time and see its kind served, or to add, edit (`kubectl replace`)
 * and remove objects as kubectl would. Answers and errors are the apiserver's: 201 with the stored
 * object (200 for a replace), 409 AlreadyExists, 409 Conflict for a replace whose resourceVersion is
 * not the stored one, 404 for a replace of no object, 422 Invalid, 400 for a body that is not the kind
 * the path names or names another object, 413 past the apiserver's 3 MiB request limit.
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
  type Status,
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
  const parsed = await readObject(req, def);
  if ('reason' in parsed) return sendStatus(res, parsed);
  const { obj, meta } = parsed;
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

type ObjectMeta = Partial<KubeObject['metadata']>;

/** The request body as an object of the kind the path names, or the apiserver's refusal. */
async function readObject(
  req: IncomingMessage,
  def: ResourceDef,
): Promise<{ obj: KubeObject; meta: ObjectMeta } | Status> {
  const text = await readBody(req);
  if (text === undefined) return status(413, 'RequestEntityTooLarge', 'request entity too large');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return badRequest(`the body of the request was in an unknown format: ${String(err)}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return badRequest('the body of the request must be a JSON object');
  }
  const obj = body as KubeObject;
  const expected = apiVersionOf(def);
  if (obj.apiVersion !== expected || obj.kind !== def.kind) {
    return badRequest(
      `the API version in the data (${String(obj.apiVersion)}) and kind (${String(obj.kind)}) do not match the expected ${expected} ${def.kind}`,
    );
  }
  const meta = (typeof obj.metadata === 'object' && obj.metadata !== null ? obj.metadata : {}) as ObjectMeta;
  return { obj, meta };
}

/**
 * PUT of one object: the body replaces it whole (status included, as the simulator keeps no
 * separate status writes), keeping its uid and creationTimestamp; watches see MODIFIED. A
 * resourceVersion in the body must be the stored one (optimistic concurrency); none replaces
 * unconditionally, as the apiserver allows for most kinds.
 */
export async function replaceObject(
  req: IncomingMessage,
  res: ServerResponse,
  store: SimStore,
  def: ResourceDef,
  namespace: string | undefined,
  name: string,
): Promise<Sent> {
  if (!def.verbs.includes('update') || !isStored(def) || def.storage) {
    return sendStatus(res, methodNotAllowed('PUT', def));
  }
  const parsed = await readObject(req, def);
  if ('reason' in parsed) return sendStatus(res, parsed);
  const { obj, meta } = parsed;
  const ns = def.namespaced ? namespace : undefined;
  if ((meta.name ?? name) !== name || (def.namespaced && (meta.namespace ?? ns) !== ns)) {
    return sendStatus(
      res,
      badRequest('the name or namespace of the provided object does not match the request'),
    );
  }
  const stored = store.peek(def.key, objectKey(ns, name));
  if (!stored) return sendStatus(res, notFound(def, name));
  if (meta.resourceVersion !== undefined && meta.resourceVersion !== stored.metadata.resourceVersion) {
    const what = def.group ? `${def.resource}.${def.group}` : def.resource;
    return sendStatus(
      res,
      status(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${what} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        { name, ...(def.group ? { group: def.group } : {}), kind: def.resource },
      ),
    );
  }
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields: _m, ...kept } = meta;
  const next = store.upsert({
    ...obj,
    metadata: {
      ...kept,
      name,
      ...(ns ? { namespace: ns } : {}),
      managedFields: stored.metadata.managedFields,
    },
  } as KubeObject);
  return sendRaw(res, 200, objectJson(def, next));
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
