import { http } from './http.ts';
import type { LoginResult } from './types.ts';

const LOGIN_ERROR = 'An error occurred while processing the login request.';

/** Fetches the XSRF-TOKEN cookie before the first state-changing auth call. */
export async function ensureCsrfCookie(): Promise<void> {
  await http.get('/sanctum/csrf-cookie');
}

interface WireLogin {
  data?: { complete?: boolean; intended?: string; confirmation_token?: string };
}

export function toLoginResult(body: unknown): LoginResult {
  if (!body || typeof body !== 'object') throw new Error(LOGIN_ERROR);
  const data = (body as WireLogin).data;
  if (!data || typeof data !== 'object') throw new Error(LOGIN_ERROR);
  return {
    complete: data.complete === true,
    intended: data.intended ?? null,
    confirmationToken: data.confirmation_token ?? null,
  };
}

export async function login(input: {
  user: string;
  password: string;
  recaptchaToken?: string | null;
}): Promise<LoginResult> {
  await ensureCsrfCookie();
  const { data } = await http.post('/auth/login', {
    user: input.user,
    password: input.password,
    'g-recaptcha-response': input.recaptchaToken ?? undefined,
  });
  return toLoginResult(data);
}

export async function loginCheckpoint(input: {
  token: string;
  code: string;
  recoveryToken?: string;
}): Promise<LoginResult> {
  const body: Record<string, string> = { confirmation_token: input.token, authentication_code: input.code };
  if (input.recoveryToken) body.recovery_token = input.recoveryToken;
  const { data } = await http.post('/auth/login/checkpoint', body);
  return toLoginResult(data);
}

/** Asks for a reset link; answers the server's status message. */
export async function requestPasswordResetEmail(
  email: string,
  recaptchaToken?: string | null,
): Promise<string> {
  await ensureCsrfCookie();
  const { data } = await http.post<{ status?: string }>('/auth/password', {
    email,
    'g-recaptcha-response': recaptchaToken ?? undefined,
  });
  return data?.status ?? '';
}

export interface ResetResult {
  redirectTo: string;
  sendToLogin: boolean;
}

export async function performPasswordReset(input: {
  email: string;
  token: string;
  password: string;
  passwordConfirmation: string;
}): Promise<ResetResult> {
  await ensureCsrfCookie();
  const { data } = await http.post<{ redirect_to?: string; send_to_login?: boolean }>(
    '/auth/password/reset',
    {
      email: input.email,
      token: input.token,
      password: input.password,
      password_confirmation: input.passwordConfirmation,
    },
  );
  return { redirectTo: data?.redirect_to ?? '/', sendToLogin: data?.send_to_login === true };
}

export async function logout(): Promise<void> {
  await http.post('/auth/logout');
}
