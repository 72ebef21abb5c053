/**
 * A node-postgres error in one line, for the messages of both stores on PostgreSQL (the gateway's
 * service accounts and the runtime's tables): the server's message with its SQLSTATE, or the
 * socket's. Never the connection string.
 */
import pg from 'pg';

export function describePostgresError(err: Error & { code?: unknown }): string {
  if (err instanceof pg.DatabaseError) return `${err.message} (SQLSTATE ${String(err.code)})`;
  // Node names the code in the message, except for a connection refused on every address of a
  // host name: an AggregateError with no message.
  /* c8 ignore next -- needs a host name with two addresses; the test machine's has one */
  return err.message || String(err.code);
}
