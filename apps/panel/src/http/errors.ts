import type { RuleFailure } from '@talon/shared';

/** An error with a place in the Pterodactyl error body: `{errors:[{code,status,detail}]}`. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    public readonly detail: string,
    public readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** 422 with one entry per failed rule (or 429 for the sign-in lockout, same shape). */
export class ValidationFailed extends Error {
  constructor(
    public readonly failures: RuleFailure[],
    public readonly status = 422,
    public readonly headers: Record<string, string> = {},
  ) {
    super(failures.map((f) => f.detail).join(' '));
  }
}

export const NOT_FOUND_RECORD = 'The requested resource could not be found on the server.';

export const errors = {
  badRequest: (detail: string, code = 'BadRequestHttpException') => new HttpError(400, code, detail),
  display: (detail: string, code = 'DisplayException') => new HttpError(400, code, detail),
  unauthenticated: () => new HttpError(401, 'AuthenticationException', 'Unauthenticated.'),
  forbidden: (detail = 'This action is unauthorized.') =>
    new HttpError(403, 'AccessDeniedHttpException', detail),
  notFound: (detail = NOT_FOUND_RECORD) => new HttpError(404, 'NotFoundHttpException', detail),
  csrf: () => new HttpError(419, 'HttpException', 'CSRF token mismatch.'),
  invalidPassword: () =>
    new HttpError(
      400,
      'InvalidPasswordProvidedException',
      'The password provided was invalid for this account.',
    ),
  tooManyRequests: (retryAfterSeconds: number, limit: number) =>
    new HttpError(429, 'ThrottleRequestsException', 'Too Many Attempts.', {
      'retry-after': String(retryAfterSeconds),
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + retryAfterSeconds),
    }),
};

/** A failure of one field found after validation (rule ''), e.g. an invalid IP in a list. */
export function fieldError(field: string, detail: string, rule = ''): ValidationFailed {
  return new ValidationFailed([{ field, rule, detail }]);
}
