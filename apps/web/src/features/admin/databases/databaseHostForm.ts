import type {
  AdminDatabaseHost,
  DatabaseEngine,
  DatabaseHostInput,
} from '../../../api/application/databaseHosts.ts';
import { problemsResolver, type FormProblems } from '../components/problemsResolver.ts';

/** The usual port of each engine, filled in when the engine changes and the port was the other's. */
export const DEFAULT_PORTS: Record<DatabaseEngine, string> = { mysql: '3306', postgresql: '5432' };

const wholeNumber = /^\d+$/u;

/** What the form holds: numbers are typed as text. */
export interface DatabaseHostFormValues {
  name: string;
  engine: DatabaseEngine;
  host: string;
  port: string;
  username: string;
  /** Write-only: '' on edit keeps the stored one. */
  password: string;
  /** '' for no limit. */
  maxDatabases: string;
  /** '' for no node. */
  nodeId: string;
}

/**
 * The application API's database host rules: name, host and username required, up to 191
 * characters; port 1–65535; the database limit a whole number or empty.
 */
export function databaseHostProblems(v: DatabaseHostFormValues): FormProblems<DatabaseHostFormValues> {
  const problems: FormProblems<DatabaseHostFormValues> = {};
  const text = (field: 'name' | 'host' | 'username', required: string, what: string) => {
    const value = v[field].trim();
    if (value === '') problems[field] = required;
    else if (value.length > 191) problems[field] = `The ${what} may not be longer than 191 characters.`;
  };
  text('name', 'A name is required.', 'name');
  text('host', 'The host address is required.', 'host');
  text('username', 'A username is required.', 'username');
  const port = v.port.trim();
  if (!wholeNumber.test(port) || Number(port) < 1 || Number(port) > 65535) {
    problems.port = 'Enter a port between 1 and 65535.';
  }
  if (v.password.length > 191) problems.password = 'The password may not be longer than 191 characters.';
  const max = v.maxDatabases.trim();
  if (max !== '' && !wholeNumber.test(max)) {
    problems.maxDatabases = 'Enter a whole number, or leave it empty for no limit.';
  }
  return problems;
}

export const databaseHostResolver = problemsResolver(databaseHostProblems);

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
