/**
 * Migration step 11 (schedules): the tables of schedules and their runs (§13). Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
export const SCHEDULES_SCHEMA = ``;
