import { closeSync, fchmodSync, openSync, writeSync } from 'node:fs';
import type { AppContext } from '../context.ts';
import type { Location, Node } from '../db/types.ts';
import { nodeConfiguration } from '../modules/nodes/nodes.configuration.ts';
import { nodeSetupService } from '../modules/nodes/node-setup.wiring.ts';
import {
  CLI_ACTOR,
  CliError,
  everything,
  idOf,
  optional,
  printTable,
  refusalsAsCliErrors,
  required,
  type Command,
} from './command.ts';

/** A node by id or exact name. */
export async function findNode(ctx: AppContext, wanted: string): Promise<Node> {
  const id = idOf(wanted);
  const node = id
    ? await ctx.repositories.nodes.findById(id)
    : (await ctx.services.nodes.list(everything({ text: wanted, columns: ['name'] }))).rows.find(
        (n) => n.name === wanted,
      );
  if (!node) throw new CliError(`no node with the id or name "${wanted}" (node:list shows them)`);
  return node;
}

/** A location by id or short code. */
async function findLocation(ctx: AppContext, wanted: string): Promise<Location> {
  const id = idOf(wanted);
  const location = id
    ? await ctx.repositories.locations.findById(id)
    : (await ctx.services.locations.list(everything({ text: wanted, columns: ['short'] }))).rows.find(
        (l) => l.short === wanted,
      );
  if (!location)
    throw new CliError(`no location with the id or short code "${wanted}" (location:list shows them)`);
  return location;
}

/** Nodes and locations from the command line: the same services and rules as the API. */
export const nodeCommands: Record<string, Command> = {
  'location:list': {
    summary: 'List the locations (groups of nodes)',
    usage: '',
    options: {},
    help: {},
    example: 'npm run -s panel -- location:list',
    async run(ctx) {
      const { rows } = await ctx.services.locations.list(everything());
      printTable(
        ['ID', 'SHORT', 'DESCRIPTION'],
        rows.map((l) => [String(l.id), l.short, l.long ?? '']),
        'No locations.',
      );
      return 0;
    },
  },
  'location:create': {
    summary: 'Create a location to put nodes in',
    usage: '--short CODE [--long DESCRIPTION]',
    options: { short: { type: 'string' }, long: { type: 'string' } },
    help: { short: 'a short unique code, e.g. eu-west', long: 'a description, e.g. "Frankfurt, Germany"' },
    example: 'npm run -s panel -- location:create --short eu-west --long "Frankfurt, Germany"',
    async run(ctx, v) {
      const location = await refusalsAsCliErrors(() =>
        ctx.services.locations.create({ short: v.short, long: v.long ?? null }, CLI_ACTOR),
      );
      console.log(`Created location ${location.id} "${location.short}".`);
      return 0;
    },
  },
  'location:delete': {
    summary: 'Delete a location that has no nodes',
    usage: '--location ID|SHORT',
    options: { location: { type: 'string' } },
    help: { location: 'the location id or short code' },
    example: 'npm run -s panel -- location:delete --location eu-west',
    async run(ctx, v) {
      const location = await findLocation(ctx, required(v, 'location'));
      await refusalsAsCliErrors(() => ctx.services.locations.delete(location.id, CLI_ACTOR));
      console.log(`Deleted location ${location.id} "${location.short}".`);
      return 0;
    },
  },
  'node:list': {
    summary: 'List the nodes (machines that run servers)',
    usage: '[--search TEXT]',
    options: { search: { type: 'string' } },
    help: { search: 'only nodes whose name or address contains TEXT (any case)' },
    example: 'npm run -s panel -- node:list',
    async run(ctx, v) {
      const { rows } = await ctx.services.nodes.list(
        everything({ text: optional(v, 'search'), columns: ['name', 'fqdn'] }),
      );
      const used = await ctx.services.nodes.allocated(rows.map((n) => n.id));
      printTable(
        ['ID', 'NAME', 'ADDRESS', 'LOCATION', 'MEMORY MiB', 'DISK MiB'],
        rows.map((n) => {
          const u = used.get(n.id) ?? { memory: 0, disk: 0 };
          return [
            String(n.id),
            n.name,
            `${n.scheme}://${n.fqdn}:${n.daemon_listen}`,
            String(n.location_id),
            `${u.memory}/${n.memory}`,
            `${u.disk}/${n.disk}`,
          ];
        }),
        'No nodes.',
      );
      return 0;
    },
  },
  'node:create': {
    summary: 'Create a node (then set up its daemon with node:setup-token or node:configure)',
    usage:
      '--name N --location ID|SHORT --fqdn HOST --memory MiB --disk MiB [--scheme https|http] [--daemon-port 8080] [--sftp-port 2022] [options]',
    options: {
      name: { type: 'string' },
      location: { type: 'string' },
      fqdn: { type: 'string' },
      scheme: { type: 'string', default: 'https' },
      memory: { type: 'string' },
      disk: { type: 'string' },
      'memory-overallocate': { type: 'string', default: '0' },
      'disk-overallocate': { type: 'string', default: '0' },
      'daemon-port': { type: 'string', default: '8080' },
      'sftp-port': { type: 'string', default: '2022' },
      'daemon-base': { type: 'string' },
      'upload-size': { type: 'string' },
      'behind-proxy': { type: 'boolean', default: false },
      private: { type: 'boolean', default: false },
      description: { type: 'string' },
    },
    help: {
      name: 'its name (letters, digits, spaces, . _ -; at most 100)',
      location: 'the location id or short code (location:list shows them)',
      fqdn: 'the address the panel and browsers reach its daemon at (a domain name; an IP address for http)',
      scheme: 'https (default; the daemon needs a certificate) or http',
      memory: 'memory servers may use in total, MiB',
      disk: 'disk space servers may use in total, MiB',
      'memory-overallocate':
        'percent over --memory allowed when placing servers; -1 = do not check (default 0)',
      'disk-overallocate': 'percent over --disk allowed; -1 = do not check (default 0)',
      'daemon-port': "the daemon's HTTP port (default 8080)",
      'sftp-port': "the daemon's SFTP port (default 2022)",
      'daemon-base': "where the daemon keeps servers' files (default /var/lib/pterodactyl/volumes)",
      'upload-size': 'largest upload through the browser, MiB (1–1024, default 100)',
      'behind-proxy': 'the daemon is behind a TLS-terminating proxy (it speaks plain HTTP itself)',
      private: 'not offered for automatic deployment',
      description: 'free text for operators',
    },
    example:
      'npm run -s panel -- node:create --name "Frankfurt 1" --location eu-west --fqdn node1.example.com --memory 16384 --disk 204800',
    async run(ctx, v) {
      const location = await findLocation(ctx, required(v, 'location'));
      const node = await ctx.services.nodes.create(
        {
          name: v.name,
          location_id: location.id,
          fqdn: v.fqdn,
          scheme: v.scheme,
          memory: v.memory,
          disk: v.disk,
          memory_overallocate: v['memory-overallocate'],
          disk_overallocate: v['disk-overallocate'],
          daemon_listen: v['daemon-port'],
          daemon_sftp: v['sftp-port'],
          public: v.private !== true,
          behind_proxy: v['behind-proxy'] === true,
          ...(v['daemon-base'] === undefined ? {} : { daemon_base: v['daemon-base'] }),
          ...(v['upload-size'] === undefined ? {} : { upload_size: v['upload-size'] }),
          ...(v.description === undefined ? {} : { description: v.description }),
        },
        CLI_ACTOR,
      );
      console.log(
        `Created node ${node.id} "${node.name}" (${node.scheme}://${node.fqdn}:${node.daemon_listen}) in location "${location.short}".\n` +
          `Next: add allocations in the admin area, and set up its daemon: npm run -s panel -- node:setup-token --node ${node.id}`,
      );
      return 0;
    },
  },
  'node:delete': {
    summary: 'Delete a node that has no servers (its allocations go with it)',
    usage: '--node ID|NAME',
    options: { node: { type: 'string' } },
    help: { node: 'the node id or name' },
    example: 'npm run -s panel -- node:delete --node "Frankfurt 1"',
    async run(ctx, v) {
      const node = await findNode(ctx, required(v, 'node'));
      await refusalsAsCliErrors(() => ctx.services.nodes.delete(node.id, CLI_ACTOR));
      console.log(`Deleted node ${node.id} "${node.name}".`);
      return 0;
    },
  },
  'node:setup-token': {
    summary:
      'Print the one-line command that sets up the daemon of a node on its machine (works once, for 15 minutes)',
    usage: '--node ID|NAME',
    options: { node: { type: 'string' } },
    help: { node: 'the node id or name' },
    example: 'npm run -s panel -- node:setup-token --node "Frankfurt 1"',
    async run(ctx, v) {
      const node = await findNode(ctx, required(v, 'node'));
      const minted = await nodeSetupService(ctx).mint(node.id, CLI_ACTOR);
      // stdout: the command alone, so `$(npm run -s panel -- node:setup-token …)` captures it.
      console.log(minted.command);
      console.error(
        `Run it on the machine of node "${node.name}", in a checkout of Talon, before ${minted.expires_at}.`,
      );
      return 0;
    },
  },
  'node:configure': {
    summary: "Print (or write) a node's daemon configuration file",
    usage: '--node ID|NAME [--file PATH]',
    options: { node: { type: 'string' }, file: { type: 'string' } },
    help: {
      node: 'the node id or name',
      file: 'write it to PATH (mode 0600) instead of printing it; it holds the node secret',
    },
    example: 'npm run -s panel -- node:configure --node 1 --file /etc/talon/daemon.json',
    async run(ctx, v) {
      const node = await findNode(ctx, required(v, 'node'));
      const text = `${JSON.stringify(nodeConfiguration(node, ctx.config.appKey, ctx.config.appUrl), null, 2)}\n`;
      const file = optional(v, 'file');
      if (!file) {
        console.log(text.trimEnd());
        return 0;
      }
      // It holds the node's secret token: readable by its owner only, also when the file existed
      // (open's mode applies only to a new file), and made so before the secret is written.
      const fd = openSync(file, 'w', 0o600);
      try {
        fchmodSync(fd, 0o600);
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      console.error(`Wrote the configuration of node "${node.name}" to ${file}.`);
      return 0;
    },
  },
};
