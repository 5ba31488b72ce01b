import { lookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { ServerError } from '../servers/errors.ts';
import type { AddressPolicy } from './address-policy.ts';

/** A refusal or failure of a remote download, in words the user can act on (HTTP 400). */
export class RemoteRefused extends ServerError {
  constructor(message: string) {
    super(message, 400);
  }
}

/** Resolves a host name to every address it has (tests may answer for names). */
export type Resolver = (host: string) => Promise<string[]>;

export interface PinnedGetOptions {
  policy: AddressPolicy;
  maxRedirects: number;
  signal: AbortSignal;
  /** Most ms for connecting and receiving the headers of each hop. */
  headersTimeoutMs: number;
  resolve?: Resolver;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Talon Daemon';

/** `raw` as an http(s) URL, or the refusal that says what is wrong with it. */
export function parseRemoteUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RemoteRefused(`An error occurred while parsing that URL: "${raw.slice(0, 200)}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RemoteRefused(
      `Only http:// and https:// addresses can be downloaded from, not ${url.protocol.slice(0, 20)}// addresses.`,
    );
  }
  return url;
}

/** A percent-encoded URL part decoded, or as it is when its encoding is broken. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The address to connect to for `url`: its IP literal, or the first address of its host name once
 * every address the name resolves to passed the policy (a name with one internal address among
 * public ones is refused: a later resolution could pick it).
 */
async function checkedAddress(url: URL, o: PinnedGetOptions): Promise<string> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) {
    const refusal = o.policy.refusal(host);
    if (refusal) throw new RemoteRefused(refusal);
    return host;
  }
  let addresses: string[];
  try {
    addresses = await (o.resolve ?? systemResolver)(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) throw new RemoteRefused(`The host ${host} could not be found.`);
  for (const a of addresses) {
    const refusal = o.policy.refusal(a);
    if (refusal)
      throw new RemoteRefused(refusal.replace(`The address ${a} `, `The address ${a} (of ${host}) `));
  }
  return addresses[0]!;
}

/**
 * One GET to `address` exactly (never resolved again, so DNS rebinding cannot swap it after the
 * check), with the URL's host name as Host header and TLS server name (the certificate is checked
 * against the name, not the address).
 */
function requestAt(url: URL, address: string, o: PinnedGetOptions): Promise<IncomingMessage> {
  const secure = url.protocol === 'https:';
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request({
      host: address,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      agent: false,
      signal: o.signal,
      ...(secure && !isIP(hostname) ? { servername: hostname } : {}),
      ...(url.username ? { auth: `${decoded(url.username)}:${decoded(url.password)}` } : {}),
      headers: { Host: url.host, 'User-Agent': USER_AGENT, Accept: '*/*' },
    });
    const timer = setTimeout(
      () =>
        req.destroy(
          new RemoteRefused(`${url.host} did not answer within ${o.headersTimeoutMs / 1000} seconds.`),
        ),
      o.headersTimeoutMs,
    );
    req.once('response', (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    // `on`, not `once`: an error after the response (a socket reset mid-body) must not go unhandled.
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(
        err instanceof RemoteRefused || o.signal.aborted
          ? err
          : new RemoteRefused(
              `Could not download from ${url.host}: ${(err as NodeJS.ErrnoException).code ?? err.message}.`,
            ),
      );
    });
    req.end();
  });
}

/**
 * GET `raw` for a user, refusing internal addresses (SSRF, protocol §9 GHSA-6rg3-8h8x-5xfv): every
 * hop's host is resolved here, every address checked, and the connection made to the checked
 * address. Redirects are followed by hand, each one checked again like the first URL, at most
 * `maxRedirects` of them. Resolves with a 200 response whose body is not read yet.
 */
export async function pinnedGet(
  raw: string,
  o: PinnedGetOptions,
): Promise<{ response: IncomingMessage; url: URL }> {
  let url = parseRemoteUrl(raw);
  for (let hop = 0; ; hop++) {
    const response = await requestAt(url, await checkedAddress(url, o), o);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECTS.has(status) && location) {
      response.destroy();
      if (hop >= o.maxRedirects) {
        throw new RemoteRefused(`The address redirected more than ${o.maxRedirects} times.`);
      }
      let next: string;
      try {
        next = new URL(location, url).href;
      } catch {
        throw new RemoteRefused(`${url.host} redirected to an invalid address.`);
      }
      url = parseRemoteUrl(next);
      continue;
    }
    if (status !== 200) {
      response.destroy();
      throw new RemoteRefused(
        `${url.host} answered ${status} ${response.statusMessage ?? ''}`.trim() + ' instead of the file.',
      );
    }
    return { response, url };
  }
}
