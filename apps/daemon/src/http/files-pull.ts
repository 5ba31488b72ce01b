import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { daemonPullRequestSchema, type DaemonPullEntry } from '@talon/shared/wings/remote-download';
import type { DaemonConfig } from '../config/config.ts';
import { AddressPolicy } from '../net/address-policy.ts';
import { parseRemoteUrl } from '../net/pinned-get.ts';
import { RemoteDownload } from '../net/remote-download.ts';
import { ServerError } from '../servers/errors.ts';
import type { Server } from '../servers/server.ts';
import { serverFiles } from './files.ts';

type WithServer = (req: FastifyRequest, reply: FastifyReply) => Server | null;

export const PULL_MESSAGES = {
  disabled: 'This functionality is not currently enabled on this instance.',
  busy: 'This server has reached its limit of 3 simultaneous remote file downloads at once. Please wait for one to complete before trying again.',
  unparsable: 'An error occurred while parsing the request body, please check the request and try again.',
};
const MAX_PER_SERVER = 3;

/**
 * Wings' remote download routes (protocol §2.4 `files/pull`, §8.15): start one (in the background,
 * 202, or in the foreground, 200 with the file object), list the running ones with their progress,
 * cancel one. Every refusal of `net/` (address, scheme, redirect, size, name) is a 400 with its
 * reason, answered before the 202.
 */
export function registerPullRoutes(app: FastifyInstance, config: DaemonConfig, withServer: WithServer): void {
  const prefix = '/api/servers/:server/files/pull';
  const settings = config.api.remote_download;
  const policy = new AddressPolicy(settings.allowed_networks);
  /** Running downloads by server uuid. */
  const running = new Map<string, Map<string, RemoteDownload>>();
  const of = (s: Server) => running.get(s.uuid) ?? new Map<string, RemoteDownload>();

  app.addHook('onClose', async () => {
    for (const downloads of running.values()) for (const d of downloads.values()) d.cancel();
  });

  const enabled = (req: FastifyRequest, reply: FastifyReply): Server | null => {
    const s = withServer(req, reply);
    if (s && config.api.disable_remote_download) throw new ServerError(PULL_MESSAGES.disabled, 400);
    return s;
  };

  app.get(prefix, async (req, reply) => {
    const s = enabled(req, reply);
    if (!s) return reply;
    // Wings' capitalised keys; the rest is ours, for progress bars that show bytes.
    return {
      downloads: [...of(s).values()].map((d): DaemonPullEntry => ({
        Identifier: d.identifier,
        Progress: d.progress,
        Url: d.request.url,
        Directory: d.request.root,
        Name: d.name,
        Bytes: d.bytes,
        Total: d.total,
      })),
    };
  });

  app.post(prefix, async (req, reply) => {
    const s = enabled(req, reply);
    if (!s) return reply;
    const parsed = daemonPullRequestSchema.safeParse(req.body);
    if (!parsed.success) return reply.code(400).send({ error: PULL_MESSAGES.unparsable, request_id: req.id });
    const body = parsed.data;
    parseRemoteUrl(body.url); // a bad URL or scheme is refused before the limit counts it
    const downloads = of(s);
    if (downloads.size >= MAX_PER_SERVER) throw new ServerError(PULL_MESSAGES.busy, 400);
    const download = new RemoteDownload(
      {
        url: body.url,
        root: body.root ?? body.directory ?? '/',
        fileName: body.file_name || null,
        useHeader: body.use_header ?? false,
      },
      serverFiles(s, config, req),
      { policy, maxRedirects: settings.max_redirects, timeoutMs: settings.timeout * 1000 },
    );
    downloads.set(download.identifier, download);
    running.set(s.uuid, downloads);
    // A deleted server's downloads stop with it (as in Wings).
    const stop = () => download.cancel();
    s.bus.once('deleted', stop);
    const forget = () => {
      s.bus.off('deleted', stop);
      downloads.delete(download.identifier);
      if (downloads.size === 0 && running.get(s.uuid) === downloads) running.delete(s.uuid);
    };
    let finished;
    try {
      ({ finished } = await download.start());
    } catch (err) {
      forget();
      throw err;
    }
    const done = finished.finally(forget);
    if (body.foreground) return done;
    done.catch((err: Error) => {
      if (!download.cancelled) req.log.warn({ err, server: s.uuid }, 'remote download failed');
    });
    return reply.code(202).send({ identifier: download.identifier });
  });

  app.delete(`${prefix}/:download`, async (req, reply) => {
    const s = withServer(req, reply);
    if (!s) return reply;
    of(s)
      .get((req.params as { download: string }).download)
      ?.cancel();
    return reply.code(204).send();
  });
}
