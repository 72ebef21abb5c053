/**
 * `${NAME}` / `${NAME:-default}` interpolation of the string values of a parsed config tree.
 * Never touches keys or raw YAML text, and never puts an environment value into a message.
 */

/** The environment variables interpolation reads (`process.env` in production). */
export type Env = Readonly<Record<string, string | undefined>>;

/** A string value that could not be interpolated, located by its key path. */
export interface InterpolationIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

// `$${` is an escaped literal `${`; `${…}` runs to the first `}`. Without the closing brace
// the match runs to the end of the value, and the value is refused (fail closed).
const REFERENCE = /\$\$\{|\$\{([^}]*)(\}?)/g;
const BODY = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;

/**
 * Replaces every `${NAME}` and `${NAME:-default}` in `text` from `env`, and `$${` with `${`.
 * `${NAME}` needs NAME to be set (possibly empty); `${NAME:-default}` takes `default` when NAME
 * is unset or empty, as a shell does. Values are inserted verbatim, never interpolated again.
 * Returns the new text and one message per reference that could not be resolved.
 */
export function interpolateString(text: string, env: Env): { value: string; problems: string[] } {
  const problems: string[] = [];
  const value = text.replace(REFERENCE, (match, body: string | undefined, close: string) => {
    if (body === undefined) return '${';
    if (close === '') {
      problems.push('unclosed "${" (write "$${" for a literal "${")');
      return match;
    }
    if (body.includes('${')) {
      problems.push('nested "${" is not supported (write "$${" for a literal "${")');
      return match;
    }
    const parts = BODY.exec(body);
    if (parts === null) {
      problems.push(
        'malformed "${...}": write ${NAME} or ${NAME:-default}, NAME being a letter or _ then letters, digits or _',
      );
      return match;
    }
    const name = parts[1] as string; // group 1 is not optional: it is there when BODY matched
    const fallback = parts[2];
    // Own properties only: `${constructor}` must not read Object.prototype.constructor.
    const found = Object.hasOwn(env, name) ? env[name] : undefined;
    if (fallback !== undefined) return found === undefined || found === '' ? fallback : found;
    if (found === undefined) {
      problems.push(
        `environment variable ${name} is not set (write \${${name}:-} to allow an empty value)`,
      );
      return '';
    }
    return found;
  });
  return { value, problems };
}

/**
 * Interpolates every string value of a parsed YAML tree (mappings, lists and scalars), leaving
 * keys as they are, so the environment can never inject structure. Returns a new tree and the
 * problems, each located by its key path.
 */
export function interpolateTree(
  tree: unknown,
  env: Env,
): { value: unknown; issues: InterpolationIssue[] } {
  const issues: InterpolationIssue[] = [];
  const visit = (node: unknown, path: readonly (string | number)[]): unknown => {
    if (typeof node === 'string') {
      const { value, problems } = interpolateString(node, env);
      for (const message of problems) issues.push({ path, message });
      return value;
    }
    if (Array.isArray(node)) return node.map((item: unknown, i) => visit(item, [...path, i]));
    if (node !== null && typeof node === 'object') {
      // fromEntries defines own properties, so a `__proto__` key stays a plain key.
      return Object.fromEntries(
        Object.entries(node).map(([key, item]) => [key, visit(item, [...path, key])]),
      );
    }
    return node;
  };
  return { value: visit(tree, []), issues };
}
