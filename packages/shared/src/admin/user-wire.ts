import { z } from 'zod';

/** The application API's users as the admin screens read them (reference §5.2). */
export const adminUserSchema = z.object({
  id: z.number().int(),
  external_id: z.string().nullable(),
  uuid: z.string(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  language: z.string(),
  root_admin: z.boolean(),
  '2fa': z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** Sorts the users list accepts (`sort=field` or `-field`); `search=` matches username, email and names. */
export const ADMIN_USER_SORTS = ['id', 'uuid', 'username', 'email', 'created_at'] as const;

/** `DELETE /api/application/users/{id}/two-factor` → 204: turns the user's two-factor off. */
export const adminUserTwoFactorPath = (id: number) => `/api/application/users/${id}/two-factor`;
