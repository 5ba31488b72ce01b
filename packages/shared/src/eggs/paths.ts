/**
 * Error paths are written the way a person reads a JSON file: `variables[2].env_variable`,
 * `config.files["server.properties"].parser`. Keys that are not plain identifiers are quoted so a
 * file name with dots is not mistaken for nesting.
 */

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/u.test(segment))
      out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

/** `path: message`, or just the message for problems with the whole file. */
export function formatEggError(error: { path: string; message: string }): string {
  return error.path === '' ? error.message : `${error.path}: ${error.message}`;
}
