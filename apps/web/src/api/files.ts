import type { ClientFileObject } from '@talon/shared/client/server-wire';
import { HttpError } from './errors.ts';
import { http, parseBody } from './http.ts';

/** A server file's text (spec 001 §7: GET .../files/contents, answered as plain text). */
export async function getFileContents(serverId: string, file: string): Promise<string> {
  const { data } = await http.get<string>(`/api/client/servers/${serverId}/files/contents`, {
    params: { file },
    asText: true,
  });
  return data;
}

/** Creates or replaces a server file (POST .../files/write with the raw content). */
export async function saveFileContents(serverId: string, file: string, content: string): Promise<void> {
  await http.post(`/api/client/servers/${serverId}/files/write`, undefined, {
    params: { file },
    rawBody: content,
  });
}

/** Compress and decompress wait longer than other calls (spec 001 §7, §9). */
export const COMPRESS_TIMEOUT_MS = 60_000;
export const DECOMPRESS_TIMEOUT_MS = 300_000;

/** A `file_object` as the API sends it (reference §3.1). */
export type WireFileObject = ClientFileObject;

/** File entry (spec 001 §3). `key` tells a file and a folder of the same name apart. */
export interface FileEntry {
  key: string;
  name: string;
  /** `-rw-r--r--` style, as sent. */
  mode: string;
  /** Octal digits, e.g. `644`. */
  modeBits: string;
  size: number;
  isFile: boolean;
  isSymlink: boolean;
  mimetype: string;
  createdAt: Date;
  modifiedAt: Date;
}

export function fileKey(name: string, isFile: boolean): string {
  return `${isFile ? 'file' : 'dir'}:${name}`;
}

function wireDate(value: string): Date {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? new Date(0) : date;
}

export function toFileEntry(wire: WireFileObject): FileEntry {
  return {
    key: fileKey(wire.name, wire.is_file),
    name: wire.name,
    mode: wire.mode,
    modeBits: wire.mode_bits,
    size: Number(wire.size) || 0,
    isFile: wire.is_file,
    isSymlink: wire.is_symlink,
    mimetype: wire.mimetype || 'application/octet-stream',
    createdAt: wireDate(wire.created_at),
    modifiedAt: wireDate(wire.modified_at),
  };
}

const base = (serverId: string) => `/api/client/servers/${serverId}/files`;

/** GET .../files/list: the entries of one directory. */
export async function listFiles(serverId: string, directory: string): Promise<FileEntry[]> {
  const { data } = await http.get<{ data?: { attributes: WireFileObject }[] }>(`${base(serverId)}/list`, {
    params: { directory },
  });
  return (data.data ?? []).map((item) => toFileEntry(item.attributes));
}

/** PUT .../files/rename: each `from` becomes `to`, both relative to `root` (rename and move). */
export async function renameFiles(
  serverId: string,
  root: string,
  files: { from: string; to: string }[],
): Promise<void> {
  await http.put(`${base(serverId)}/rename`, { root, files });
}

/** POST .../files/delete. */
export async function deleteFiles(serverId: string, root: string, files: string[]): Promise<void> {
  await http.post(`${base(serverId)}/delete`, { root, files });
}

/** POST .../files/compress: answers the archive it made. */
export async function compressFiles(serverId: string, root: string, files: string[]): Promise<FileEntry> {
  const { data } = await http.post<{ attributes: WireFileObject }>(
    `${base(serverId)}/compress`,
    { root, files },
    { timeout: COMPRESS_TIMEOUT_MS },
  );
  return toFileEntry(data.attributes);
}

/** POST .../files/decompress: unpacks `file` into `root`. */
export async function decompressFile(serverId: string, root: string, file: string): Promise<void> {
  await http.post(`${base(serverId)}/decompress`, { root, file }, { timeout: DECOMPRESS_TIMEOUT_MS });
}

/** POST .../files/chmod. `mode` is the octal digits read as a number (755 for rwxr-xr-x). */
export async function chmodFiles(
  serverId: string,
  root: string,
  files: { file: string; mode: number }[],
): Promise<void> {
  await http.post(`${base(serverId)}/chmod`, { root, files });
}

/** POST .../files/copy: the daemon puts the copy beside the original. */
export async function copyFile(serverId: string, location: string): Promise<void> {
  await http.post(`${base(serverId)}/copy`, { location });
}

/** POST .../files/create-folder. */
export async function createDirectory(serverId: string, root: string, name: string): Promise<void> {
  await http.post(`${base(serverId)}/create-folder`, { root, name });
}

/** GET .../files/download: a signed daemon URL the browser then opens. */
export async function getFileDownloadUrl(serverId: string, file: string): Promise<string> {
  const { data } = await http.get<{ attributes: { url: string } }>(`${base(serverId)}/download`, {
    params: { file },
  });
  return data.attributes.url;
}

/** GET .../files/upload: a signed daemon URL good for one upload. */
export async function getFileUploadUrl(serverId: string): Promise<string> {
  const { data } = await http.get<{ attributes: { url: string } }>(`${base(serverId)}/upload`);
  return data.attributes.url;
}

/**
 * POSTs `files` as multipart form data (field `files`) to a signed upload URL with the query
 * `directory`. XMLHttpRequest rather than fetch: only it reports upload progress.
 */
export function uploadFiles(
  url: string,
  directory: string,
  files: File[],
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const target = new URL(url, window.location.href);
    target.searchParams.set('directory', directory);
    const form = new FormData();
    for (const file of files) form.append('files', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', target.toString());
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    });
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else
        reject(
          new HttpError(
            `Request failed with status code ${xhr.status}`,
            xhr.status,
            parseBody(xhr.responseText),
          ),
        );
    });
    xhr.addEventListener('error', () => reject(new HttpError('Network Error', null, undefined)));
    xhr.addEventListener('abort', () => reject(new HttpError('Request aborted', null, undefined)));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}
