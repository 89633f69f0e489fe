import type { RE2JS } from 're2js';
import type { GuardrailStage, GuardrailVerdict } from '../domain/guardrails/guardrail';
import { defineGuardrail, type GuardrailDefinition } from './define-guardrail';
import { OWN_PII_RULES } from './pii/own-pii-rules';

/** The kinds of personal data @redactpii/node finds, and IBANs (pii/own-pii-rules.ts). */
export type PiiKind = 'CREDIT_CARD' | 'EMAIL' | 'IBAN' | 'NAME' | 'PHONE' | 'SSN';
const LIBRARY_KINDS = ['CREDIT_CARD', 'EMAIL', 'NAME', 'PHONE', 'SSN'] as const;

export interface PiiGuardrailOptions {
  /** Default `pii`. */
  name?: string;
  /** Default `input`: the task is masked before the model reads it. */
  stage?: GuardrailStage;
  /** `redact` (default) masks each find as `[KIND]`; `block` stops the text instead. */
  action?: 'redact' | 'block';
  /** Which kinds to look for; default all six. `PHONE` covers US and UK numbers. */
  kinds?: readonly PiiKind[];
  /** @redactpii/node's aggressive patterns (obfuscated emails, titles before names): more finds, more false ones. */
  aggressive?: boolean;
}

type RedactPii = typeof import('@redactpii/node', { with: { 'resolution-mode': 'import' } });

interface Rule {
  kind: string;
  pattern: RE2JS;
  accept?: (match: string) => boolean;
}

/**
 * Personal data in a text, found with the maintained patterns of @redactpii/node (emails, US
 * phone numbers, card numbers, US social security numbers, names after a greeting) and our own
 * for what it lacks (IBANs with their mod-97 check, UK phone numbers: pii/own-pii-rules.ts, run
 * first), masked as `[EMAIL]`, `[IBAN]`, `[PHONE_NUMBER]`… All run on RE2 (re2js), not JavaScript's engine:
 * the library's own `redact` takes quadratic time on some texts (100,000 characters of `a.`
 * took 6.7 s), RE2 takes linear time on every text. What it misses: docs/guardrails.md.
 */
export function piiGuardrail(options: PiiGuardrailOptions = {}): GuardrailDefinition {
  const rules = piiRules(options.kinds, options.aggressive ?? false);
  const action = options.action ?? 'redact';
  return defineGuardrail({
    name: options.name ?? 'pii',
    stage: options.stage ?? 'input',
    description: `Personal data (${[...new Set(rules.map((r) => r.kind))].join(', ')}): ${action === 'redact' ? 'masked' : 'blocked'}.`,
    check: (text) => piiVerdict(rules, text, action),
  });
}

function piiVerdict(rules: readonly Rule[], text: string, action: 'redact' | 'block'): GuardrailVerdict {
  const found = new Map<string, number>();
  let masked = text;
  for (const rule of rules) {
    let count = 0;
    masked = rule.pattern.matcher(masked).replaceAll((match: string) => {
      if (rule.accept && !rule.accept(match)) return match;
      count += 1;
      return `[${rule.kind}]`;
    });
    if (count) found.set(rule.kind, (found.get(rule.kind) ?? 0) + count);
  }
  if (!found.size) return { verdict: 'pass' };
  const what = [...found].map(([kind, n]) => `${n} ${kind}`).join(', ');
  return action === 'redact'
    ? { verdict: 'redact', text: masked, reason: `masked ${what}` }
    : { verdict: 'block', reason: `holds personal data (${what})` };
}

/**
 * Our own patterns for the kinds asked, then the library's, compiled with RE2. The library's are
 * read from its Redactor (no public accessor): a version that keeps them elsewhere fails here,
 * when the worker is made, never by letting personal data through.
 */
function piiRules(kinds: readonly PiiKind[] | undefined, aggressive: boolean): Rule[] {
  const { RE2JS: Re2 } = require('re2js') as typeof import('re2js');
  const asked = new Set<PiiKind>(kinds ?? [...LIBRARY_KINDS, 'IBAN']);
  const own = OWN_PII_RULES.filter((r) => asked.has(r.option)).map((r) => ({
    kind: r.kind,
    pattern: Re2.compile(r.source),
    ...(r.accept ? { accept: r.accept } : {}),
  }));
  return [
    ...own,
    ...libraryRules(
      LIBRARY_KINDS.filter((k) => asked.has(k)),
      aggressive,
    ),
  ];
}

function libraryRules(asked: readonly PiiKind[], aggressive: boolean): Rule[] {
  if (asked.length === 0) return [];
  const { Redactor } = require('@redactpii/node') as RedactPii;
  const { RE2JS: Re2 } = require('re2js') as typeof import('re2js');
  const redactor = new Redactor({ rules: Object.fromEntries(asked.map((k) => [k, true])), aggressive });
  const active = (redactor as unknown as { activeRules?: unknown }).activeRules;
  if (!Array.isArray(active) || active.length !== asked.length)
    throw new TypeError(
      'piiGuardrail: this version of @redactpii/node keeps its patterns where piiGuardrail cannot read them.',
    );
  return active.map((rule: { name?: unknown; pattern?: unknown }) => {
    if (typeof rule.name !== 'string' || !(rule.pattern instanceof RegExp))
      throw new TypeError('piiGuardrail: a @redactpii/node rule has no name or pattern.');
    const flags = rule.pattern.flags.includes('i') ? Re2.CASE_INSENSITIVE : 0;
    return { kind: rule.name, pattern: Re2.compile(rule.pattern.source, flags) };
  });
}
