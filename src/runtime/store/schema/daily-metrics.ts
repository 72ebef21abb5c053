/**
 * Migration step 9 (daily metrics): the tables of daily metrics aggregates (§9). Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
export const DAILY_METRICS_SCHEMA = ``;
