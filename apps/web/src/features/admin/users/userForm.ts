import { z } from 'zod';
import { isEmail } from '@talon/shared';
import type { AdminUser, UserInput } from '../../../api/application/users.ts';

/**
 * The create/edit user form's rules: the application API's (reference §5.2), checked before
 * sending so most mistakes are shown without a round trip; the API's 422s land on the same fields.
 */
const USERNAME = /^[a-z0-9][\w.-]+[a-z0-9]$/u;

/** The languages the API accepts (`in:en`). */
export const USER_LANGUAGES = [{ value: 'en', label: 'English' }] as const;

const required = (what: string) => z.string().trim().min(1, `${what} is required.`);

export const userFormSchema = z.object({
  email: required('An email address')
    .max(191, 'The email address may not be longer than 191 characters.')
    .refine((v) => isEmail(v), 'Enter a valid email address.'),
  username: required('A username')
    .max(191, 'The username may not be longer than 191 characters.')
    .refine(
      (v) => USERNAME.test(v.toLowerCase()),
      'The username must be at least 3 characters, start and end with a letter or number, and contain only letters, numbers, dashes, underscores and periods.',
    ),
  firstName: required('A first name').max(191, 'The first name may not be longer than 191 characters.'),
  lastName: required('A last name').max(191, 'The last name may not be longer than 191 characters.'),
  password: z.string(),
  language: z.string().min(1),
  rootAdmin: z.boolean(),
});

export type UserFormValues = z.infer<typeof userFormSchema>;

/** Which form field a 422's `source_field` is about. */
const WIRE_FIELDS: Record<string, keyof UserFormValues> = {
  email: 'email',
  username: 'username',
  first_name: 'firstName',
  last_name: 'lastName',
  password: 'password',
  language: 'language',
  root_admin: 'rootAdmin',
};

export function userFieldForWire(wire: string): keyof UserFormValues | null {
  return WIRE_FIELDS[wire] ?? null;
}

export const EMPTY_USER: UserFormValues = {
  email: '',
  username: '',
  firstName: '',
  lastName: '',
  password: '',
  language: 'en',
  rootAdmin: false,
};

export function toUserFormValues(user: AdminUser): UserFormValues {
  return {
    email: user.email,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    password: '',
    language: user.language,
    rootAdmin: user.rootAdmin,
  };
}

export function toUserInput(values: UserFormValues): UserInput {
  return {
    email: values.email.trim(),
    username: values.username.trim(),
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    password: values.password,
    language: values.language,
    rootAdmin: values.rootAdmin,
  };
}
