import type { Logger } from 'pino';
import type { Config } from '../../config/config.ts';
import type { Db } from '../../db/client.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import { DatabaseHostsRepository } from './database-hosts.repository.ts';
import { DatabaseHostsService } from './database-hosts.service.ts';
import { DatabaseIds } from './database-ids.ts';
import { ServerDatabasesRepository } from './databases.repository.ts';
import { ServerDatabasesService } from './databases.service.ts';

export interface DatabaseServices {
  hosts: DatabaseHostsService;
  databases: ServerDatabasesService;
}

interface Parts {
  config: Config;
  db: Db;
  log: Logger;
  activity: ActivityService;
}

const built = new WeakMap<Db, DatabaseServices>();

/**
 * The database hosts and server databases services of one panel (one per database connection),
 * built once: the routes, the CLI and the server deletion share them.
 */
export function databaseServices(ctx: Parts): DatabaseServices {
  const existing = built.get(ctx.db);
  if (existing) return existing;
  const hostsRepo = new DatabaseHostsRepository(ctx.db.db);
  const hosts = new DatabaseHostsService(hostsRepo, ctx.activity, ctx.config.appKey);
  const databases = new ServerDatabasesService(
    new ServerDatabasesRepository(ctx.db.db),
    hostsRepo,
    hosts,
    ctx.activity,
    new DatabaseIds(ctx.config.hashids),
    ctx.config,
    ctx.log,
  );
  const services = { hosts, databases };
  built.set(ctx.db, services);
  return services;
}
