/**
 * Migration step 10 (eval runs): the tables of eval runs (§10). Append-only once released: a later
 * change is a new step in ../migrations.ts, never an edit here.
 */
export const EVALS_SCHEMA = ``;
