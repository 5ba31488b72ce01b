import type { DatabaseEngine } from '@talon/shared';

/** Where and as whom the panel manages databases on a host (the password decrypted). */
export interface HostCredentials {
  host: string;
  port: number;
  username: string;
  password: string;
}

/** One server database on a host: its name, its only user, and what that user may do. */
export interface DatabaseOnHost {
  database: string;
  username: string;
  /** where the user may connect from (`%`, `192.168.1.%`); PostgreSQL only records it */
  remote: string;
  /** the user's simultaneous connections; 0 = unlimited */
  maxConnections: number;
}

/** Why a host cannot be used, named so an operator can fix it. */
export type HostProblem = 'unreachable' | 'access_denied' | 'missing_privilege' | 'other';

export class DatabaseHostError extends Error {
  constructor(
    readonly problem: HostProblem,
    message: string,
  ) {
    super(message);
  }
}

/** Socket errors that mean the host could not be reached at all (both drivers report them as `code`). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** The error for a host the panel could not reach, or null when `code` is not a reachability failure. */
export function unreachable(host: HostCredentials, code: string | undefined): DatabaseHostError | null {
  if (!code || !UNREACHABLE.has(code)) return null;
  return new DatabaseHostError(
    'unreachable',
    `The database host ${host.host}:${host.port} could not be reached (${code}).`,
  );
}

/** How long a host may take to accept a connection before it counts as unreachable. */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * What the panel does on a database host, one implementation per engine. Names reaching a driver
 * have passed the API's rules already; drivers quote every identifier and send passwords as escaped
 * literals or parameters anyway.
 */
export interface EngineDriver {
  readonly engine: DatabaseEngine;
  /**
   * Connects and proves the account can do everything the panel needs (create a database and a
   * user, grant, drop both), with a throwaway database; throws DatabaseHostError naming the problem.
   */
  check(host: HostCredentials): Promise<void>;
  /**
   * Creates the database and its user with `password`, allowed on that database only. When a step
   * fails, what this call created is dropped again (never something that existed before) and the
   * error is thrown: the host is left as it was.
   */
  create(host: HostCredentials, db: DatabaseOnHost, password: string): Promise<void>;
  setPassword(host: HostCredentials, db: DatabaseOnHost, password: string): Promise<void>;
  /** Drops the user and the database; idempotent (missing ones are fine). */
  drop(host: HostCredentials, db: DatabaseOnHost): Promise<void>;
}
