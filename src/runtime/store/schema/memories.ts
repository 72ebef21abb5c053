/**
 * Migration step 5 (memories): the tables of user memories (RUNTIME_API §6). Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
export const MEMORIES_SCHEMA = ``;
