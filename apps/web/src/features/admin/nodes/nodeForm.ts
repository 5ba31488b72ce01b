import type { AdminNode, NodeInput } from '../../../api/application/nodes.ts';
import { problemsResolver, type FormProblems } from '../components/problemsResolver.ts';

/**
 * The node form's rules: the application API's (reference §5.3, plus `description`), checked
 * before sending. Fields carry the wire names, so the API's 422 `source_field` lands on them as is.
 * Numbers are kept as the text typed and converted on submit.
 */
const NAME = /^[\w .-]{1,100}$/u;
const DAEMON_BASE = /^\/[\d\w.\-/]+$/u;
const WHOLE = /^-?\d+$/u;
const INT_MAX = 2147483647;

/** The problem with a whole-number text box, or undefined. */
function whole(text: string, what: string, min: number, max: number, unit = ''): string | undefined {
  const v = text.trim();
  if (v === '') return `Enter the ${what}.`;
  if (!WHOLE.test(v)) return `The ${what} must be a whole number.`;
  if (Number(v) < min || Number(v) > max) {
    return max === INT_MAX
      ? `The ${what} must be at least ${min}${unit}.`
      : `The ${what} must be between ${min} and ${max}${unit}.`;
  }
  return undefined;
}

export interface NodeFormValues {
  name: string;
  description: string;
  location_id: string;
  fqdn: string;
  scheme: 'https' | 'http';
  behind_proxy: boolean;
  public: boolean;
  maintenance_mode: boolean;
  memory: string;
  memory_overallocate: string;
  disk: string;
  disk_overallocate: string;
  upload_size: string;
  daemon_listen: string;
  daemon_sftp: string;
  daemon_base: string;
}

export function nodeProblems(v: NodeFormValues): FormProblems<NodeFormValues> {
  const problems: FormProblems<NodeFormValues> = {};
  const name = v.name.trim();
  if (name === '') problems.name = 'A name is required.';
  else if (!NAME.test(name)) {
    problems.name =
      'The name may be up to 100 characters: letters, numbers, spaces, dots, dashes and underscores.';
  }
  if (v.description.length > 2000)
    problems.description = 'The description may not be longer than 2000 characters.';
  if (v.location_id === '') problems.location_id = 'Choose a location.';
  const fqdn = v.fqdn.trim();
  if (fqdn === '') problems.fqdn = 'An address (domain name or IP) is required.';
  else if (fqdn.length > 191) problems.fqdn = 'The address may not be longer than 191 characters.';
  problems.memory = whole(v.memory, 'memory', 1, INT_MAX, ' MiB');
  problems.memory_overallocate = whole(v.memory_overallocate, 'memory overallocation', -1, INT_MAX, ' %');
  problems.disk = whole(v.disk, 'disk space', 1, INT_MAX, ' MiB');
  problems.disk_overallocate = whole(v.disk_overallocate, 'disk overallocation', -1, INT_MAX, ' %');
  problems.upload_size = whole(v.upload_size, 'upload size limit', 1, 1024, ' MiB');
  problems.daemon_listen = whole(v.daemon_listen, 'daemon port', 1, 65535);
  problems.daemon_sftp = whole(v.daemon_sftp, 'SFTP port', 1, 65535);
  if (!DAEMON_BASE.test(v.daemon_base.trim())) {
    problems.daemon_base =
      'The base directory must be an absolute path (starting with /) of letters, numbers, dots, dashes and slashes.';
  }
  return problems;
}

/** The checked values go on with their text boxes trimmed. */
function tidyNode(v: NodeFormValues): NodeFormValues {
  const trimmed = { ...v };
  for (const field of [
    'name',
    'fqdn',
    'memory',
    'memory_overallocate',
    'disk',
    'disk_overallocate',
    'upload_size',
    'daemon_listen',
    'daemon_sftp',
    'daemon_base',
  ] as const) {
    trimmed[field] = v[field].trim();
  }
  return trimmed;
}

export const nodeResolver = problemsResolver(nodeProblems, tidyNode);

/** A new node: the daemon's default ports and folder (docs/daemon.md), nothing overallocated. */
export const EMPTY_NODE: NodeFormValues = {
  name: '',
  description: '',
  location_id: '',
  fqdn: '',
  scheme: 'https',
  behind_proxy: false,
  public: true,
  maintenance_mode: false,
  memory: '',
  memory_overallocate: '0',
  disk: '',
  disk_overallocate: '0',
  upload_size: '100',
  daemon_listen: '8080',
  daemon_sftp: '2022',
  daemon_base: '/var/lib/talon/volumes',
};

export function toNodeFormValues(node: AdminNode): NodeFormValues {
  return {
    name: node.name,
    description: node.description ?? '',
    location_id: String(node.locationId),
    fqdn: node.fqdn,
    scheme: node.scheme === 'http' ? 'http' : 'https',
    behind_proxy: node.behindProxy,
    public: node.public,
    maintenance_mode: node.maintenanceMode,
    memory: String(node.memory),
    memory_overallocate: String(node.memoryOverallocate),
    disk: String(node.disk),
    disk_overallocate: String(node.diskOverallocate),
    upload_size: String(node.uploadSize),
    daemon_listen: String(node.daemonListen),
    daemon_sftp: String(node.daemonSftp),
    daemon_base: node.daemonBase,
  };
}

export function toNodeInput(values: NodeFormValues): NodeInput {
  const description = values.description.trim();
  return {
    name: values.name.trim(),
    description: description === '' ? null : description,
    location_id: Number(values.location_id),
    fqdn: values.fqdn.trim(),
    scheme: values.scheme,
    behind_proxy: values.behind_proxy,
    public: values.public,
    maintenance_mode: values.maintenance_mode,
    memory: Number(values.memory),
    memory_overallocate: Number(values.memory_overallocate),
    disk: Number(values.disk),
    disk_overallocate: Number(values.disk_overallocate),
    upload_size: Number(values.upload_size),
    daemon_listen: Number(values.daemon_listen),
    daemon_sftp: Number(values.daemon_sftp),
    daemon_base: values.daemon_base.trim(),
  };
}

const FIELDS = new Set<string>(Object.keys(EMPTY_NODE));

/** Which form field a 422's `source_field` is about (`reset_secret` has none). */
export function nodeFieldForWire(wire: string): keyof NodeFormValues | null {
  return FIELDS.has(wire) ? (wire as keyof NodeFormValues) : null;
}

/** The panel saved the node but could not rewrite the daemon's file (reference §5.3). */
export const CONFIG_NOT_PERSISTED = 'ConfigurationNotPersistedException';

/** The reference's detail carries <strong>…</strong>: shown as plain words. */
export function stripTags(text: string): string {
  return text
    .replace(/<[^>]*>/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
}
