import * as z from 'zod/mini';
import { requiredString } from './auth.ts';

/** Messages of the file manager's "Download from URL" form (the spec has none for it). */
export const FILE_PULL_MESSAGES = {
  urlRequired: 'A URL to download from must be provided.',
  urlInvalid: 'Enter a full address that starts with http:// or https://.',
  fileNameSlash: 'A file name cannot contain a slash.',
} as const;

const M = FILE_PULL_MESSAGES;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Download from URL: the address (http or https; whether it may be reached is the daemon's call)
 * and an optional file name for the download, else the daemon takes it from the answer or the URL.
 */
export const pullFileSchema = z.object({
  url: requiredString(M.urlRequired, { trim: true }).check(z.refine(isHttpUrl, { error: M.urlInvalid })),
  fileName: z.string().check(
    z.trim(),
    z.refine((value) => !/[/\\]/.test(value), { error: M.fileNameSlash }),
  ),
});
export type PullFileValues = z.infer<typeof pullFileSchema>;
