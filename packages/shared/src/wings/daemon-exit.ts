/**
 * Exit statuses of the daemon a supervisor (the panel's embedded daemon, systemd) can act on.
 * 75 is EX_TEMPFAIL of sysexits.h: try again later.
 */
export const DAEMON_EXIT_PORT_IN_USE = 75;

/**
 * `runtime.driver` is `docker` but the engine cannot be used (no socket, permission denied, engine
 * down): 78 is EX_CONFIG. The daemon logs why before it exits; a supervisor tries again later,
 * since Docker may just be starting.
 */
export const DAEMON_EXIT_DOCKER_UNUSABLE = 78;

/** The flag the panel gives its local daemon: stdin is a pipe from the panel, and its end means the panel is gone. */
export const EXIT_WITH_STDIN_FLAG = '--exit-with-stdin';
