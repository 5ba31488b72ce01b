/**
 * Websocket wire vocabulary of the daemon (Wings protocol §3). Frames are JSON text
 * `{"event": name, "args": [string, ...]}`; args are always strings, structured data is one JSON string.
 */
export const WS_INBOUND = {
  auth: 'auth',
  setState: 'set state',
  sendCommand: 'send command',
  sendLogs: 'send logs',
  sendStats: 'send stats',
} as const;

export const WS_OUTBOUND = {
  authSuccess: 'auth success',
  status: 'status',
  stats: 'stats',
  consoleOutput: 'console output',
  installOutput: 'install output',
  installStarted: 'install started',
  installCompleted: 'install completed',
  daemonMessage: 'daemon message',
  daemonError: 'daemon error',
  jwtError: 'jwt error',
  tokenExpiring: 'token expiring',
  tokenExpired: 'token expired',
  deleted: 'deleted',
  backupCompleted: 'backup completed',
  /** Our addition: a running backup's progress, JSON of BackupProgressEvent. */
  backupProgress: 'backup progress',
  backupRestoreCompleted: 'backup restore completed',
  /** A message over a rate limit was not acted on; args: the event name, or `global` (§9.2b). */
  throttled: 'throttled',
  // Sent by Wings nodes; the web app handles them, our daemon does not send them yet.
  transferStatus: 'transfer status',
} as const;

export type WsOutboundEvent = (typeof WS_OUTBOUND)[keyof typeof WS_OUTBOUND];

export interface WsFrame {
  event: string;
  args?: string[];
}

/** Websocket limits (protocol §9.2b, CVE-2025-69199): the per-server cap's refusal (HTTP 400). */
export const WS_TOO_MANY_CONNECTIONS = 'Too many open websocket connections.';
/** The argument of `throttled` when the connection-wide bucket, not an event's, is empty. */
export const WS_THROTTLED_GLOBAL = 'global';

/** Power states a server reports in `status` and in the HTTP details. */
export const SERVER_STATES = ['offline', 'starting', 'running', 'stopping'] as const;
export type ServerState = (typeof SERVER_STATES)[number];

export const POWER_ACTIONS = ['start', 'stop', 'restart', 'kill'] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];

/** JWT problems sent as `jwt error`; the panel's frontend matches the first two texts. */
export const JWT_ERRORS = {
  expired: 'jwt: exp claim is invalid',
  denylisted: 'jwt: created too far in past (denylist)',
  missing: 'jwt: no jwt present',
  noConnect: 'jwt: missing connect permission',
  serverMismatch: 'jwt: server uuid mismatch',
  /** A token signed for another purpose (a signed URL's) or without `scope` (§9.2b). */
  wrongScope: 'jwt: token scope is not websocket',
} as const;

// The `stats` payload's shape is `serverStatsSchema` in daemon-api.ts.
