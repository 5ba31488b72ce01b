import type { ApiKey, User } from '../db/types.ts';
import type { SessionState } from '../modules/sessions/sessions.service.ts';
import type { ActivityActor } from '../modules/activity/activity.service.ts';

/** Who is calling: a user through a session or through an API key. */
export interface Actor {
  user: User;
  apiKey: ApiKey | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionState | null;
    /** set by the API authentication hook */
    actor: Actor | null;
  }
}

export function activityActor(req: { actor: Actor | null; ip: string }): ActivityActor {
  return { userId: req.actor?.user.id ?? null, apiKeyId: req.actor?.apiKey?.id ?? null, ip: req.ip };
}

/** The caller of a route that requires authentication (the hook guarantees it is set). */
export function requireActor(req: { actor: Actor | null }): Actor {
  if (!req.actor) throw new Error('route reached without an authenticated actor');
  return req.actor;
}
