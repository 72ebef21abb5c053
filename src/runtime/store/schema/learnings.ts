/**
 * Migration step 6 (learnings): the tables of learnings (§7). Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
export const LEARNINGS_SCHEMA = ``;
