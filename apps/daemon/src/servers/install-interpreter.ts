import { installInterpreter } from '@talon/shared';
import { STANDARD_PATH, findProgram } from '../runtime/which.ts';

export type InterpreterChoice = { path: string } | { refused: string };

/**
 * The host program that runs an egg's install script. The egg names an interpreter of its Docker
 * image (`bash`, `/bin/ash`…); this runtime uses the host's programs, found on the standard PATH
 * (the one the sandbox gives the script), with `sh` standing in for a missing `ash` or `bash`.
 * Only bash, ash and sh are accepted: the panel's egg schema refuses anything else, and the daemon
 * checks again because eggs imported before that rule, or a panel it does not trust, may still
 * send one. The entrypoint is never passed to a shell.
 */
export function resolveInstallInterpreter(entrypoint: string): InterpreterChoice {
  const name = installInterpreter(entrypoint);
  if (!name) {
    return {
      refused: `install entrypoint ${JSON.stringify(entrypoint)} is not an allowed interpreter (bash, ash or sh)`,
    };
  }
  for (const candidate of name === 'sh' ? ['sh'] : [name, 'sh']) {
    const found = findProgram(candidate, STANDARD_PATH);
    if (found) return { path: found };
  }
  return { refused: `no ${name} or sh found on this node (${STANDARD_PATH})` };
}
