import type { ApprovalPolicy, ApprovalRule } from './approval';
import { legacyPathReason } from './legacy-approval-path-rule';
import { legacySqlReason } from './legacy-approval-sql-rule';
import { aboveReason, candidates, firstReason, jsonText, shown } from './rule-values';
import type { ApprovalCheck } from './approval-policy';

/*
 * The approval evaluator as it was before `approval-rules-fail-closed`: kept unchanged so that
 * histories recorded with it replay with the same decisions. New runs use `approvalNeeded`.
 * Its path and SQL rules can be talked past (see docs/people-in-the-loop.md); never use it for new work.
 */

const NOT_NEEDED: Readonly<ApprovalCheck> = { needed: false };

/**
 * Whether a call with `args` needs a person's approval under `policy` (absent means `never`).
 * The reason names the first rule that held, in words an approver reads.
 */
export function legacyApprovalNeeded(policy: ApprovalPolicy | undefined, args: Record<string, unknown>): ApprovalCheck {
  if (policy === undefined || policy === 'never') return NOT_NEEDED;
  if (policy === 'always') return { needed: true, reason: 'always requires approval' };
  for (const rule of policy.anyOf) {
    const reason = ruleReason(rule, args);
    if (reason !== undefined) return { needed: true, reason };
  }
  return NOT_NEEDED;
}

function ruleReason(rule: ApprovalRule, args: Record<string, unknown>): string | undefined {
  const found = candidates(args, rule.field.split('.'));
  const first = (test: (value: unknown) => string | undefined): string | undefined => firstReason(found, test);
  switch (rule.when) {
    case 'pathPrefix':
      return first((value) => legacyPathReason(rule.field, value, rule.prefixes));
    case 'above':
      return first((value) => aboveReason(rule.field, value, rule.threshold));
    case 'sqlVerb':
      return first((value) => legacySqlReason(value, rule.verbs));
    case 'matches': {
      let pattern: RegExp;
      try {
        pattern = new RegExp(rule.pattern, 'i');
      } catch (error) {
        const detail = error instanceof Error ? `: ${error.message}` : '';
        return `invalid approval rule pattern ${shown(rule.pattern)} for ${rule.field}${detail}`;
      }
      return first((value) =>
        (typeof value === 'string' || typeof value === 'number') && pattern.test(String(value)) ? `${rule.field} matches /${rule.pattern}/` : undefined,
      );
    }
    case 'equals':
      return first((value) => {
        const text = jsonText(value);
        if (text === undefined) return `${rule.field} cannot be compared as JSON`;
        return rule.values.some((listed) => jsonText(listed) === text) ? `${rule.field} is ${shown(value)}` : undefined;
      });
    default: {
      const unknownRule: never = rule;
      return `unknown approval rule ${shown(unknownRule)}`;
    }
  }
}
