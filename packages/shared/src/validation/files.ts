import * as z from 'zod/mini';
import { requiredString } from './auth.ts';

/**
 * Messages of the file manager's forms. The directory one is the spec's (001 §5), word for word;
 * the others are rules the spec leaves without a text, worded here.
 */
export const FILE_VALIDATION_MESSAGES = {
  directoryNameRequired: 'A valid directory name must be provided.',
  fileNameRequired: 'A new name must be provided.',
  fileNameSlash: 'A name cannot contain a slash. Use Move to put the file in another folder.',
  newFileNameRequired: 'A file name must be provided.',
  destinationRequired: 'A destination folder must be provided.',
  modeInvalid: 'Permissions are three or four digits from 0 to 7, such as 644 or 0755.',
} as const;

const M = FILE_VALIDATION_MESSAGES;

/** Octal permission digits: `644`, `755`, `0755` (special bits in a leading fourth digit). */
export const FILE_MODE_PATTERN = /^[0-7]{3,4}$/;

/** Create Directory (spec 001 §2, §5): the name is required. */
export const createDirectorySchema = z.object({
  name: requiredString(M.directoryNameRequired, { trim: true }),
});
export type CreateDirectoryValues = z.infer<typeof createDirectorySchema>;

/** Rename: a new name in the same folder. */
export const renameFileSchema = z.object({
  name: requiredString(M.fileNameRequired, { trim: true }).check(
    z.refine((value) => !value.includes('/'), { error: M.fileNameSlash }),
  ),
});
export type RenameFileValues = z.infer<typeof renameFileSchema>;

/** Move: the folder (from the server root) the files go to. */
export const moveFilesSchema = z.object({
  destination: requiredString(M.destinationRequired, { trim: true }),
});
export type MoveFilesValues = z.infer<typeof moveFilesSchema>;

/** Permissions: octal digits. */
export const chmodSchema = z.object({
  mode: z.string().check(z.trim(), z.regex(FILE_MODE_PATTERN, M.modeInvalid)),
});
export type ChmodValues = z.infer<typeof chmodSchema>;

/**
 * New file (spec 001 §5: a name is required). The name may hold folders (`conf/app.yml`): they are
 * made inside the current folder when the file is written.
 */
export const newFileSchema = z.object({
  name: requiredString(M.newFileNameRequired, { trim: true }),
});
export type NewFileValues = z.infer<typeof newFileSchema>;
