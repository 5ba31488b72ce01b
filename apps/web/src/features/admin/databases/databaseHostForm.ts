import { z } from 'zod';
import { DATABASE_ENGINES } from '@talon/shared';
import type { AdminDatabaseHost, DatabaseHostInput } from '../../../api/application/databaseHosts.ts';

/** The usual port of each engine, filled in when the engine changes and the port was the other's. */
export const DEFAULT_PORTS = { mysql: '3306', postgresql: '5432' } as const;

const wholeNumber = /^\d+$/u;

/**
 * The database host form's rules: the application API's (name, host, username required, up to
 * 191 characters; port 1–65535; max databases a whole number or empty). Numbers are typed as text.
 */
export const databaseHostFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'A name is required.')
    .max(191, 'The name may not be longer than 191 characters.'),
  engine: z.enum(DATABASE_ENGINES),
  host: z
    .string()
    .trim()
    .min(1, 'The host address is required.')
    .max(191, 'The host may not be longer than 191 characters.'),
  port: z
    .string()
    .trim()
    .refine(
      (v) => wholeNumber.test(v) && Number(v) >= 1 && Number(v) <= 65535,
      'Enter a port between 1 and 65535.',
    ),
  username: z
    .string()
    .trim()
    .min(1, 'A username is required.')
    .max(191, 'The username may not be longer than 191 characters.'),
  password: z.string().max(191, 'The password may not be longer than 191 characters.'),
  maxDatabases: z
    .string()
    .trim()
    .refine((v) => v === '' || wholeNumber.test(v), 'Enter a whole number, or leave it empty for no limit.'),
  /** '' for no node. */
  nodeId: z.string(),
});

export type DatabaseHostFormValues = z.infer<typeof databaseHostFormSchema>;

export const EMPTY_DATABASE_HOST: DatabaseHostFormValues = {
  name: '',
  engine: 'mysql',
  host: '',
  port: DEFAULT_PORTS.mysql,
  username: '',
  password: '',
  maxDatabases: '',
  nodeId: '',
};

export function toDatabaseHostFormValues(host: AdminDatabaseHost): DatabaseHostFormValues {
  return {
    name: host.name,
    engine: host.engine,
    host: host.host,
    port: String(host.port),
    username: host.username,
    password: '',
    maxDatabases: host.maxDatabases === null ? '' : String(host.maxDatabases),
    nodeId: host.nodeId === null ? '' : String(host.nodeId),
  };
}

/** `otherNodeIds`: nodes the host serves besides the first (set through the API), kept as they are. */
export function toDatabaseHostInput(
  values: DatabaseHostFormValues,
  otherNodeIds: number[] = [],
): DatabaseHostInput {
  const first = values.nodeId === '' ? [] : [Number(values.nodeId)];
  return {
    name: values.name.trim(),
    engine: values.engine,
    host: values.host.trim(),
    port: Number(values.port),
    username: values.username.trim(),
    password: values.password,
    maxDatabases: values.maxDatabases.trim() === '' ? null : Number(values.maxDatabases),
    nodeIds: [...first, ...otherNodeIds.filter((id) => !first.includes(id))],
  };
}

const WIRE_FIELDS: Record<string, keyof DatabaseHostFormValues> = {
  name: 'name',
  engine: 'engine',
  host: 'host',
  port: 'port',
  username: 'username',
  password: 'password',
  max_databases: 'maxDatabases',
  node_ids: 'nodeId',
};

export function databaseHostFieldForWire(wire: string): keyof DatabaseHostFormValues | null {
  return WIRE_FIELDS[wire] ?? (wire.startsWith('node_ids.') ? 'nodeId' : null);
}
