/**
 * Migration step 7 (knowledge): the tables of knowledge contents and their chunks (§8). Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
export const KNOWLEDGE_SCHEMA = ``;
