import { z } from 'zod';
import type { AdminNode, NodeInput } from '../../../api/application/nodes.ts';

/**
 * The node form's rules: the application API's (reference §5.3, plus `description`), checked
 * before sending. Fields carry the wire names, so the API's 422 `source_field` lands on them as is.
 * Numbers are kept as the text typed and converted on submit.
 */
const NAME = /^[\w .-]{1,100}$/u;
const DAEMON_BASE = /^\/[\d\w.\-/]+$/u;
const WHOLE = /^-?\d+$/u;
const INT_MAX = 2147483647;

function whole(what: string, min: number, max: number, unit = '') {
  return z
    .string()
    .trim()
    .min(1, `Enter the ${what}.`)
    .refine((v) => WHOLE.test(v), `The ${what} must be a whole number.`)
    .refine(
      (v) => Number(v) >= min && Number(v) <= max,
      max === INT_MAX
        ? `The ${what} must be at least ${min}${unit}.`
        : `The ${what} must be between ${min} and ${max}${unit}.`,
    );
}

export const nodeFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'A name is required.')
    .refine(
      (v) => NAME.test(v),
      'The name may be up to 100 characters: letters, numbers, spaces, dots, dashes and underscores.',
    ),
  description: z.string().max(2000, 'The description may not be longer than 2000 characters.'),
  location_id: z.string().min(1, 'Choose a location.'),
  fqdn: z
    .string()
    .trim()
    .min(1, 'An address (domain name or IP) is required.')
    .max(191, 'The address may not be longer than 191 characters.'),
  scheme: z.enum(['https', 'http']),
  behind_proxy: z.boolean(),
  public: z.boolean(),
  maintenance_mode: z.boolean(),
  memory: whole('memory', 1, INT_MAX, ' MiB'),
  memory_overallocate: whole('memory overallocation', -1, INT_MAX, ' %'),
  disk: whole('disk space', 1, INT_MAX, ' MiB'),
  disk_overallocate: whole('disk overallocation', -1, INT_MAX, ' %'),
  upload_size: whole('upload size limit', 1, 1024, ' MiB'),
  daemon_listen: whole('daemon port', 1, 65535),
  daemon_sftp: whole('SFTP port', 1, 65535),
  daemon_base: z
    .string()
    .trim()
    .refine(
      (v) => DAEMON_BASE.test(v),
      'The base directory must be an absolute path (starting with /) of letters, numbers, dots, dashes and slashes.',
    ),
});

export type NodeFormValues = z.infer<typeof nodeFormSchema>;

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
