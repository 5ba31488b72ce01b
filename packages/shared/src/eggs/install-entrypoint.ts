/**
 * What an egg may name as its install entrypoint and install container. The entrypoint picks the
 * interpreter the daemon runs the install script with; it never reaches a shell, and anything but a
 * known shell is refused (an egg is uploaded by an administrator, but eggs are shared as files
 * from anywhere, and the daemon runs as root).
 */

/** Interpreters an install script may ask for; the process runtime runs `ash` with the host's `sh`. */
export const INSTALL_INTERPRETERS = ['bash', 'ash', 'sh'] as const;
export type InstallInterpreter = (typeof INSTALL_INTERPRETERS)[number];

// The bare name, or its absolute path in the usual binary directories (`/bin/bash`, `/usr/bin/sh`…).
const ENTRYPOINT = /^(?:\/(?:usr\/(?:local\/)?)?bin\/)?(bash|ash|sh)$/u;

/** The interpreter an entrypoint names, or null when it is not on the allow-list. */
export function installInterpreter(entrypoint: string): InstallInterpreter | null {
  const m = ENTRYPOINT.exec(entrypoint.trim());
  return m ? (m[1] as InstallInterpreter) : null;
}

export const INSTALL_ENTRYPOINT_MESSAGE =
  'must be bash, ash or sh (or /bin/, /usr/bin/ or /usr/local/bin/ followed by one of them)';

/**
 * A Docker image reference (`[registry[:port]/]path[:tag][@digest]`), after the distribution
 * project's reference grammar: lower-case path components, no spaces, no shell characters.
 */
const DOMAIN = String.raw`(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?`;
const COMPONENT = String.raw`[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*`;
const TAG = String.raw`[\w][\w.-]{0,127}`;
const DIGEST = String.raw`[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}`;
export const IMAGE_REFERENCE = new RegExp(
  `^(?:${DOMAIN}/)?${COMPONENT}(?:/${COMPONENT})*(?::${TAG})?(?:@${DIGEST})?$`,
  'u',
);

export const IMAGE_REFERENCE_MESSAGE =
  'must be a Docker image reference (for example ghcr.io/owner/image:tag)';
