import { STANDARD_PATH } from './which.ts';

/**
 * The whole environment of every program the daemon starts on the host: bubblewrap, setpriv, the
 * launch shell, `ss`. Fixed, so nothing a panel, an egg or a server owner chose (LD_PRELOAD…) and
 * none of the daemon's own variables can steer a program that runs with the daemon's privileges.
 * A server's own environment is applied only inside its launch, after the privilege drop
 * (launch-script.ts).
 */
export const HOST_ENV: Readonly<Record<string, string>> = Object.freeze({ PATH: STANDARD_PATH, LANG: 'C' });
