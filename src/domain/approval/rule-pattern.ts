import type { RE2JS } from 're2js';
import type { ApprovalPolicy } from './approval';
import { shown } from './rule-values';

/**
 * A `matches` rule's pattern compiled with RE2 (linear-time matching whatever the pattern), or
 * the reason it does not compile (backreferences, lookaround, bad syntax). Pure; never throws.
 */
export function compileRulePattern(pattern: string): RE2JS | { problem: string } {
  try {
    const { RE2JS: Re2 } = require('re2js') as typeof import('re2js'); // loaded on first use, like the SQL grammars
    return Re2.compile(pattern, Re2.CASE_INSENSITIVE);
  } catch (error) {
    return { problem: error instanceof Error ? error.message : 'it does not compile' };
  }
}

/**
 * Why a policy can never be evaluated as written, or undefined: today, a `matches` pattern RE2
 * cannot compile. Such a rule would ask for approval on every call (it fails closed), so it is
 * refused where the policy is declared (defineTool) and when a run starts.
 */
export function policyProblem(policy: ApprovalPolicy | undefined): string | undefined {
  if (policy === undefined || typeof policy === 'string') return undefined;
  for (const rule of policy.anyOf) {
    if (rule.when !== 'matches') continue;
    const compiled = compileRulePattern(rule.pattern);
    if ('problem' in compiled)
      return `the approval rule pattern ${shown(rule.pattern)} for ${rule.field} is not RE2 syntax: ${compiled.problem}`;
  }
  return undefined;
}
