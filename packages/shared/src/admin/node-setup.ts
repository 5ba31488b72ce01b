/**
 * Plain constants of a daemon's one-line setup, in a module without zod: the web admin imports them,
 * and any zod feature it pulls in is also downloaded by the sign-in page (they share zod's core).
 */

/** Minutes a setup token can be redeemed, once. */
export const NODE_SETUP_TOKEN_MINUTES = 15;

/** The remote route a daemon's `configure` command redeems a setup token at. */
export const nodeSetupPath = (token: string) => `/api/remote/node-setup/${encodeURIComponent(token)}`;
