/**
 * Migration step 8 (traces): the tables of run traces and their spans (§11). Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
export const TRACES_SCHEMA = ``;
