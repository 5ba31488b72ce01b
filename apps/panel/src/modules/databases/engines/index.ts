import type { DatabaseEngine } from '@talon/shared';
import type { EngineDriver } from './engine.ts';
import { MysqlDriver } from './mysql.ts';
import { PostgresqlDriver } from './postgresql.ts';

const DRIVERS: Record<DatabaseEngine, EngineDriver> = {
  mysql: new MysqlDriver(),
  postgresql: new PostgresqlDriver(),
};

/** The driver of a host's engine; an unknown stored engine is a programming error. */
export function driverFor(engine: string): EngineDriver {
  const driver = DRIVERS[engine as DatabaseEngine] as EngineDriver | undefined;
  if (!driver) throw new Error(`Unknown database engine "${engine}"`);
  return driver;
}

export * from './engine.ts';
