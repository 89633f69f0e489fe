/*
 * Roles only from a verified identity (issue 78): a decision's roles count toward a rule (approver
 * roles, budget raiser roles) only when the run verified the signature that covers them, that is
 * when `thoughtline serve` signed the decision for the person its token or OIDC authenticated.
 * Roles a caller merely names (an unsigned payload sent straight to Temporal, the CLI's `--roles`)
 * are recorded as claimed, never as held. Pure and sandbox-safe.
 */

/** Who decided, with the roles the payload names and whether a verified signature covers them. */
export interface DecidingPerson {
  id: string;
  roles: readonly string[];
  rolesVerified: boolean;
}

/**
 * Why `who` may not do `what` under a rule that requires one of `required`, or undefined when they
 * may (a rule with no roles is open to everyone who reaches the run). Names the role needed, and
 * says when the person named it without a signature to vouch for it.
 */
export function roleProblem(who: DecidingPerson, required: readonly string[], what: string): string | undefined {
  if (required.length === 0) return undefined;
  const needs = `it needs one of the roles ${required.join(', ')}`;
  if (who.rolesVerified) {
    if (who.roles.some((r) => required.includes(r))) return undefined;
    return `${who.id} may not ${what}: ${needs}; they have ${who.roles.join(', ') || 'none'}.`;
  }
  const claimed = who.roles.length ? `; ${who.id} claimed ${who.roles.join(', ')}, not verified` : '';
  return `${who.id} may not ${what}: ${needs}, verified by a signature (decide through thoughtline serve, or sign with its keyring: --signing-keys)${claimed}.`;
}

/** The roles as the chain shows them: " (ops)" when verified, " (claimed: ops, not verified)" when named only. */
export function rolesInWords(who: Pick<DecidingPerson, 'roles' | 'rolesVerified'>): string {
  if (who.roles.length === 0) return '';
  return who.rolesVerified ? ` (${who.roles.join(', ')})` : ` (claimed: ${who.roles.join(', ')}, not verified)`;
}
