/**
 * RFC 6902 JSON Patch between two session states, for AG-UI `STATE_DELTA`: objects are compared
 * key by key, anything else (arrays included) is replaced whole. Pure.
 */
import { isDeepStrictEqual } from 'node:util';
import type { JsonPatchOperation } from '@ag-ui/core';
import { isRecord } from '../json.js';

/** The operations that turn `before` into `after` (`[]` when they are equal). */
export function diffState(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
  path = '',
): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key))
      ops.push({ op: 'remove', path: `${path}/${pointerToken(key)}` });
  }
  for (const [key, value] of Object.entries(after)) {
    const at = `${path}/${pointerToken(key)}`;
    if (!Object.hasOwn(before, key)) {
      ops.push({ op: 'add', path: at, value });
      continue;
    }
    const old = before[key];
    if (isDeepStrictEqual(old, value)) continue;
    if (isRecord(old) && isRecord(value)) ops.push(...diffState(old, value, at));
    else ops.push({ op: 'replace', path: at, value });
  }
  return ops;
}

/** A key as an RFC 6901 reference token: `~` → `~0`, `/` → `~1`. */
function pointerToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
