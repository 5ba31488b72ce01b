import type { Actor } from '../../http/context.ts';
import { includes as parseIncludes } from '../../http/query.ts';
import { ACL_READ, hasAcl, type AclResource } from './acl.ts';

export const NULL_RESOURCE = { object: 'null_resource', attributes: null } as const;

/** Nested includes go at most this deep (`a.b`), as in the original. */
const MAX_DEPTH = 2;

type Relationships = Record<string, Relationship | typeof NULL_RESOURCE>;

/**
 * Adds `relationships` to an object's attributes when any include was processed for it (the key
 * is absent otherwise, as in the original).
 */
export function withRelationships<A extends object>(attributes: A, relationships: Relationships): A {
  return Object.keys(relationships).length > 0 ? { ...attributes, relationships } : attributes;
}

/**
 * The includes a request asked for (`include=a,b.c`), with the ACL rule of the application API: an
 * include is granted when the caller may READ its resource, otherwise it renders as a null
 * resource. Unlike the original, root admins' sessions get every include too (not null resources).
 */
export class Includes {
  private constructor(
    private readonly requested: Set<string>,
    private readonly actor: Actor,
  ) {}

  static fromQuery(query: Record<string, unknown>, actor: Actor): Includes {
    const names = new Set<string>();
    for (const raw of parseIncludes(query)) {
      const parts = raw.split('.').slice(0, MAX_DEPTH);
      // `a.b` implies `a`.
      for (let i = 1; i <= parts.length; i++) names.add(parts.slice(0, i).join('.'));
    }
    return new Includes(names, actor);
  }

  /**
   * The includes requested for the objects included under `name`: `below('allocations')` holds
   * `node` when `allocations.node` was requested. The depth limit was applied when parsing, so an
   * object nested this way never sees deeper names; the ACL rule applies at every level.
   */
  below(name: string): Includes {
    const prefix = `${name}.`;
    const names = new Set<string>();
    for (const requested of this.requested) {
      if (requested.startsWith(prefix)) names.add(requested.slice(prefix.length));
    }
    return new Includes(names, this.actor);
  }

  /** 'no' when not requested, 'denied' when the ACL refuses it, else 'yes'. */
  want(name: string, resource: AclResource | null): 'no' | 'denied' | 'yes' {
    if (!this.requested.has(name)) return 'no';
    return resource === null || hasAcl(this.actor, resource, ACL_READ) ? 'yes' : 'denied';
  }
}

export interface Relationship {
  object: string | null;
  attributes?: unknown;
  data?: unknown[];
}

/** An included single object. */
export function relItem(object: string | null, attributes: unknown): Relationship {
  return { object, attributes };
}

/** An included collection (never paginated). */
export function relList(object: string, rows: unknown[]): Relationship {
  return { object: 'list', data: rows.map((attributes) => ({ object, attributes })) };
}
