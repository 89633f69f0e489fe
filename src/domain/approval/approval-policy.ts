import type { ApprovalPolicy, ApprovalRule } from './approval';
import { pathReason } from './approval-path-rule';
import { sqlReason, verbWords } from './approval-sql-rule';
import { compileRulePattern } from './rule-pattern';
import { aboveReason, candidates, firstReason, jsonText, shown } from './rule-values';
import { toolEffects, type ToolSpec } from '../tools/tool-spec';

/*
 * Evaluates a tool's approval policy against a call's arguments. Runs inside the workflow: pure,
 * deterministic, no Node modules, and never throws. Rules guard side effects and fail closed: a
 * call needs no approval only when every value is positively recognised as safe, so every doubt
 * (unreadable amount, broken pattern, a path or SQL text that is not plainly recognised) means
 * "approval needed".
 */

export type ApprovalCheck = { needed: false } | { needed: true; reason: string };

const NOT_NEEDED: Readonly<ApprovalCheck> = { needed: false };

/**
 * Whether a call with `args` needs a person's approval under `policy` (absent means `never`).
 * The reason names the first rule that held, in words an approver reads.
 */
export function approvalNeeded(policy: ApprovalPolicy | undefined, args: Record<string, unknown>): ApprovalCheck {
  if (policy === undefined || policy === 'never') return NOT_NEEDED;
  if (policy === 'always') return { needed: true, reason: 'always requires approval' };
  for (const rule of policy.anyOf) {
    const reason = ruleReason(rule, args);
    if (reason !== undefined) return { needed: true, reason };
  }
  return NOT_NEEDED;
}

/** One line for the CLI and status views: `always`, `never`, or `when path under /etc; when amount > 1000`. */
export function describePolicy(policy: ApprovalPolicy | undefined): string {
  if (policy === undefined || policy === 'never') return 'never';
  if (policy === 'always') return 'always';
  return policy.anyOf
    .map(describeRule)
    .join('; ')
    .replace(/[\u0000-\u001f]+/g, ' ');
}

const WRITE_LIKE_TYPES: ReadonlySet<string> = new Set(['file_system', 'database']);

/**
 * The policy a tool gets when it sets none: `always` for write-like tools (type `file_system` or
 * `database` with effects other than `none`), `never` for every other tool.
 */
export function defaultApprovalPolicy(tool: Pick<ToolSpec, 'type' | 'effects' | 'readOnly'>): ApprovalPolicy {
  return WRITE_LIKE_TYPES.has(tool.type) && toolEffects(tool) !== 'none' ? 'always' : 'never';
}

function ruleReason(rule: ApprovalRule, args: Record<string, unknown>): string | undefined {
  const found = candidates(args, rule.field.split('.'));
  const first = (test: (value: unknown) => string | undefined): string | undefined => firstReason(found, test);
  switch (rule.when) {
    case 'pathPrefix':
      return first((value) => pathReason(rule.field, value, rule.prefixes));
    case 'above':
      return first((value) => aboveReason(rule.field, value, rule.threshold));
    case 'sqlVerb':
      return first((value) => sqlReason(value, rule.verbs));
    case 'matches': {
      // RE2 semantics: matching time is linear in the argument's length whatever the pattern, so
      // a hostile pattern or argument cannot freeze the workflow. Patterns RE2 cannot compile
      // (backreferences, lookaround) always need approval.
      const pattern = compileRulePattern(rule.pattern);
      if ('problem' in pattern)
        return `invalid approval rule pattern ${shown(rule.pattern)} for ${rule.field}: ${pattern.problem}`;
      return first((value) =>
        (typeof value === 'string' || typeof value === 'number') && pattern.matcher(String(value)).find()
          ? `${rule.field} matches /${rule.pattern}/`
          : undefined,
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

function describeRule(rule: ApprovalRule): string {
  switch (rule.when) {
    case 'pathPrefix':
      return `when ${rule.field} under ${rule.prefixes.join(' or ')} or not a plain absolute path`;
    case 'above':
      return `when ${rule.field} > ${rule.threshold}`;
    case 'sqlVerb':
      return `when ${rule.field} runs ${rule.verbs
        .map(verbWords)
        .map((w) => w.join(' '))
        .join(' or ')} or anything but one plain read`;
    case 'matches':
      return `when ${rule.field} matches /${rule.pattern}/`;
    case 'equals':
      return `when ${rule.field} is ${rule.values.map(shown).join(' or ')}`;
    default: {
      const unknownRule: never = rule;
      return `when ${shown(unknownRule)}`;
    }
  }
}
