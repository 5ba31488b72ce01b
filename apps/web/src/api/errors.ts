/** The error an HTTP call rejects with: the client's own message plus what the server said. */
export class HttpError extends Error {
  readonly status: number | null;
  readonly data: unknown;
  /** `errors[0].code` of a Pterodactyl-style error body, if any. */
  readonly code: string | null;

  constructor(message: string, status: number | null, data: unknown) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.data = data;
    this.code = firstError(data)?.code ?? null;
  }
}

interface WireErrorEntry {
  code?: string;
  status?: string;
  detail?: string;
  meta?: Record<string, unknown>;
}

export function firstError(data: unknown): WireErrorEntry | null {
  if (!data || typeof data !== 'object') return null;
  const errors = (data as { errors?: unknown }).errors;
  if (!Array.isArray(errors) || errors.length === 0) return null;
  const entry: unknown = errors[0];
  return entry && typeof entry === 'object' ? entry : null;
}

/**
 * Error text rule (spec §8): `errors[0].detail`, else a string `error` field, else the client's own
 * message (`Request aborted`, `Network Error`, `timeout of {n}ms exceeded`, …).
 */
export function httpErrorToHuman(error: unknown): string {
  if (error instanceof HttpError) {
    const detail = firstError(error.data)?.detail;
    if (typeof detail === 'string' && detail.length > 0) return detail;
    const plain = (error.data as { error?: unknown } | null)?.error;
    if (typeof plain === 'string' && plain.length > 0) return plain;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
