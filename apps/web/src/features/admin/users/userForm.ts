import { isEmail } from '@talon/shared/rules';
import type { AdminUser, UserInput } from '../../../api/application/users.ts';
import { problemsResolver, type FormProblems } from '../components/problemsResolver.ts';

/**
 * The create/edit user form's rules: the application API's (reference §5.2), checked before
 * sending so most mistakes are shown without a round trip; the API's 422s land on the same fields.
 */
const USERNAME = /^[a-z0-9][\w.-]+[a-z0-9]$/u;

/** The languages the API accepts (`in:en`). */
export const USER_LANGUAGES = [{ value: 'en', label: 'English' }] as const;

/** The form holds what the API is sent (password optional: see UserInput). */
export type UserFormValues = UserInput;

export function userProblems(v: UserFormValues): FormProblems<UserFormValues> {
  const problems: FormProblems<UserFormValues> = {};
  const email = v.email.trim();
  if (email === '') problems.email = 'An email address is required.';
  else if (email.length > 191) problems.email = 'The email address may not be longer than 191 characters.';
  else if (!isEmail(email)) problems.email = 'Enter a valid email address.';

  const username = v.username.trim();
  if (username === '') problems.username = 'A username is required.';
  else if (username.length > 191) problems.username = 'The username may not be longer than 191 characters.';
  else if (!USERNAME.test(username.toLowerCase())) {
    problems.username =
      'The username must be at least 3 characters, start and end with a letter or number, and contain only letters, numbers, dashes, underscores and periods.';
  }

  if (v.firstName.trim() === '') problems.firstName = 'A first name is required.';
  else if (v.firstName.trim().length > 191)
    problems.firstName = 'The first name may not be longer than 191 characters.';
  if (v.lastName.trim() === '') problems.lastName = 'A last name is required.';
  else if (v.lastName.trim().length > 191)
    problems.lastName = 'The last name may not be longer than 191 characters.';
  return problems;
}

export const userResolver = problemsResolver(userProblems);

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
