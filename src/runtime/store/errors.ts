/**
 * The one error the runtime store throws when a database cannot be opened or migrated. Its
 * message always names the file, so the caller can turn it into a start-up error as it is.
 */

/** A runtime database that cannot be opened, or whose schema this build must not touch. */
export class RuntimeStoreError extends Error {
  override readonly name = 'RuntimeStoreError';
  /** The database path as the caller gave it. */
  readonly path: string;

  /**
   * @param path the database path, quoted at the start of the message
   * @param problem what went wrong, in words
   * @param cause the underlying error, if any
   */
  constructor(path: string, problem: string, cause?: unknown) {
    super(`runtime store '${path}': ${problem}`, { cause });
    this.path = path;
  }
}
