import type { z } from 'zod';
import type { Person } from '../../domain';

/**
 * Who sends a decision, an instruction or an answer: an id (`'alice'`), or an id with the roles
 * the caller vouches for (`{ id: 'alice', roles: ['ops'] }`). One shape for `decide`, `steer`
 * and `answer`. Roles come only from here: an id alone has none, so it cannot pass a role check.
 */
export type Actor = string | z.input<typeof Person>;

/** The person an approval decision names; a copy, so extra fields of the caller's object stay out. */
export function toPerson(by: Actor): Person {
  return typeof by === 'string' ? { id: by, roles: [] } : { id: by.id, roles: [...(by.roles ?? [])] };
}

/** The id steering and answers record (they carry no roles). */
export function actorId(by: Actor): string {
  return typeof by === 'string' ? by : by.id;
}
