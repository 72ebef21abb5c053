/**
 * Migration step 12 (approvals): the tables of approvals (§14). Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
export const APPROVALS_SCHEMA = ``;
