import * as z from 'zod/mini';
import {
  SUBUSER_FILE_PATHS_MAX,
  SUBUSER_VALIDATION_MESSAGES as M,
  filePathError,
  normaliseFolderPath,
  subuserEmailSchema,
} from '@talon/shared/validation/subusers';

/** The fields the form validates; the ticked permissions live beside it, in the modal's state. */
export interface SubuserFormFields {
  email: string;
  /** One folder per line (our `file_paths` extension). */
  folders: string;
}

function folderLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** What is wrong with the typed folders, or null. Lines are normalised first (`plugins/` is `/plugins`). */
export function foldersError(text: string): string | null {
  const lines = folderLines(text);
  if (lines.length > SUBUSER_FILE_PATHS_MAX) return M.filePathsMax;
  for (const line of lines) {
    const path = normaliseFolderPath(line);
    const problem = path === null ? M.filePathInvalid : filePathError(path);
    if (problem) return `${line}: ${problem}`;
  }
  return null;
}

/** The `file_paths` to send: the normalised folders, or null (the whole server) when none is typed. */
export function toFilePaths(text: string): string[] | null {
  const paths = [...new Set(folderLines(text).map((line) => normaliseFolderPath(line) ?? line))];
  return paths.length === 0 ? null : paths;
}

/** The folders as the textarea shows them. */
export function fromFilePaths(paths: readonly string[] | null): string {
  return (paths ?? []).join('\n');
}

/**
 * Spec 001 §5's email rule, and the folders of our extension as text. Not the shared
 * subuserFormSchema: its list of folders needs z.array, and every zod function the web app uses
 * lands in the chunk the sign-in page loads (over its budget).
 */
export const subuserFieldsSchema = z.object({
  email: subuserEmailSchema,
  folders: z.string().check(
    z.refine((text) => foldersError(text) === null, {
      error: (issue) => foldersError(String(issue.input)) ?? M.filePathInvalid,
    }),
  ),
});
