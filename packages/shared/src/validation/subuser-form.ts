import * as z from 'zod/mini';
import {
  SUBUSER_FILE_PATHS_MAX,
  SUBUSER_VALIDATION_MESSAGES as M,
  filePathError,
  subuserEmailSchema,
} from './subusers.ts';

/**
 * The create/edit user modal (spec 001 §5 "Subuser form"). `filePaths` (our extension) is empty
 * for "the whole server".
 */
export const subuserFormSchema = z.object({
  email: subuserEmailSchema,
  permissions: z.array(z.string()),
  filePaths: z.optional(
    z.array(z.string()).check(
      z.maxLength(SUBUSER_FILE_PATHS_MAX, M.filePathsMax),
      z.superRefine((paths, ctx) => {
        paths.forEach((path, index) => {
          const message = filePathError(path);
          if (message) ctx.issues.push({ code: 'custom', message, input: path, path: [index] });
        });
      }),
    ),
  ),
});
export type SubuserFormValues = z.infer<typeof subuserFormSchema>;
