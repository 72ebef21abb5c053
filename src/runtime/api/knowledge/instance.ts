/**
 * The runtime's one knowledge instance: its stable id, and which instance a
 * request's `knowledge_id` / `db_id` select. Pure; never touches the store.
 */
import { createHash } from 'node:crypto';
import type { KnowledgeSettings } from '../../catalogue/definitions.js';
import { HttpError } from '../../http/errors.js';

/** The table `/config` names for knowledge. */
export const KNOWLEDGE_TABLE = 'agno_knowledge';

/** A knowledge instance as `/config` lists it. */
export interface KnowledgeInstance {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly db_id: string;
  readonly table: string;
}

/** The first 128 bits of the SHA-256 of `seed`, written as a uuid (`8-4-4-4-12`). */
export function uuidOfHash(seed: string | Buffer): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The instance: id = sha256 of `db_id:table:name` as a uuid, as Agno derives it. */
export function knowledgeInstanceOf(settings: KnowledgeSettings, dbId: string): KnowledgeInstance {
  return Object.freeze({
    id: uuidOfHash(`${dbId}:${KNOWLEDGE_TABLE}:${settings.name}`),
    name: settings.name,
    description: settings.description ?? null,
    db_id: dbId,
    table: KNOWLEDGE_TABLE,
  });
}

/**
 * Checks that `knowledge_id` (the id or the name) and `db_id`, when given, select `instance`;
 * 404 `Knowledge base 'X' not found` otherwise. With one instance both are optional.
 */
export function selectInstance(
  instance: KnowledgeInstance,
  given: {
    readonly knowledgeId?: string | null | undefined;
    readonly dbId?: string | null | undefined;
  },
): KnowledgeInstance {
  const { knowledgeId, dbId } = given;
  if (knowledgeId != null && knowledgeId !== instance.id && knowledgeId !== instance.name) {
    throw new HttpError(404, `Knowledge base '${knowledgeId}' not found`);
  }
  if (dbId != null && dbId !== instance.db_id) {
    throw new HttpError(404, `Knowledge base '${dbId}' not found`);
  }
  return instance;
}
