import { http } from './http.ts';

export async function updateAccountPassword(input: {
  current: string;
  password: string;
  confirmPassword: string;
}): Promise<void> {
  await http.put('/api/client/account/password', {
    current_password: input.current,
    password: input.password,
    password_confirmation: input.confirmPassword,
  });
}

export async function updateAccountEmail(email: string, password: string): Promise<void> {
  await http.put('/api/client/account/email', { email, password });
}

export interface TwoFactorSetup {
  imageUrlData: string;
  secret: string;
}

export async function getTwoFactorSetup(): Promise<TwoFactorSetup> {
  const { data } = await http.get<{ data: { image_url_data: string; secret: string } }>(
    '/api/client/account/two-factor',
  );
  return { imageUrlData: data.data.image_url_data, secret: data.data.secret };
}

/** Enables two-factor; answers the recovery codes (shown once). */
export async function enableTwoFactor(code: string): Promise<string[]> {
  const { data } = await http.post<{ attributes: { tokens: string[] } }>('/api/client/account/two-factor', {
    code,
  });
  return data.attributes.tokens;
}

export async function disableTwoFactor(password: string): Promise<void> {
  await http.delete('/api/client/account/two-factor', { params: { password } });
}

/** Account-level permissions (spec §6): read at attributes.permissions. */
export async function getAccountPermissions(): Promise<Record<string, unknown>> {
  const { data } = await http.get<{ attributes: { permissions: Record<string, unknown> } }>(
    '/api/client/permissions',
  );
  return data.attributes.permissions;
}
