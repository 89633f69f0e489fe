import type { GuardrailStage, GuardrailVerdict } from '../domain/guardrails/guardrail';
import { defineGuardrail, type GuardrailDefinition } from './define-guardrail';

export interface PromptInjectionGuardrailOptions {
  /** Default `prompt-injection`. */
  name?: string;
  /** Default `tool_result`: what a tool fetched is checked before the model reads it. */
  stage?: GuardrailStage;
  /** @andersmyrmel/vard's preset: `moderate` (default), `strict` (more finds, false ones too: "AI" reads as a delimiter), `lenient`. */
  preset?: 'strict' | 'moderate' | 'lenient';
}

type Vard = typeof import('@andersmyrmel/vard', { with: { 'resolution-mode': 'import' } });

/**
 * The word after an override's object ("…previous instructions ⟨here⟩") when it is an order to
 * the model: the end of the text or clause (punctuation), or a word that goes on with the order
 * ("and", "then", "now", "you"…). Any other word makes the phrase a name of a part of a document
 * ("skip the earlier guidelines section", "the previous rules page"), which is not an order. An
 * allow-list: a new continuation word has to be added here to block.
 */
const ORDER_ENDS = String.raw`(?=\s*$|\s*[^\p{L}\p{N}\s]|\s+(?:and|or|then|now|immediately|completely|entirely|instead|altogether|you|from|given|above|below|here|so|but)\b)`;

/**
 * Paraphrases of "ignore the instructions" vard 1.2 misses at every preset ("Disregard all prior
 * instructions", "forget everything above"), added as its custom patterns. Each is a run of
 * words with single quantifiers: no nested repetition, so no catastrophic backtracking. The
 * first blocks an override only when it ends as an order (ORDER_ENDS): docs/guardrails.md.
 */
const EXTRA_PATTERNS: readonly RegExp[] = [
  new RegExp(
    String.raw`\b(?:disregard|forget|override|skip)\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:previous|prior|above|earlier|preceding|former)\s+(?:instructions|directions|rules|prompts?|guidelines)\b` +
      ORDER_ENDS,
    'iu',
  ),
  /\bforget\s+(?:everything|all)\s+(?:above|before|you\s+were\s+told)\b/i,
  /\bnew\s+instructions\s*:/i,
];

/**
 * Prompt injection in a text (by default tool results: a web page or a file telling the model
 * what to do), found by @andersmyrmel/vard's heuristics plus EXTRA_PATTERNS: a find blocks the
 * text (the model reads the guardrail's reason instead); delimiters and encoded blobs vard strips
 * come back redacted. Heuristics: what they miss is in docs/guardrails.md.
 */
export function promptInjectionGuardrail(options: PromptInjectionGuardrailOptions = {}): GuardrailDefinition {
  const check = injectionCheck(options.preset ?? 'moderate');
  return defineGuardrail({
    name: options.name ?? 'prompt-injection',
    stage: options.stage ?? 'tool_result',
    description:
      'Prompt injection heuristics (@andersmyrmel/vard): instruction overrides, role changes, delimiters, prompt leaks.',
    check,
  });
}

function injectionCheck(preset: 'strict' | 'moderate' | 'lenient'): (text: string) => Promise<GuardrailVerdict> {
  // vard is ESM-only without a `require` export: imported once, on the first check.
  let loaded: Promise<(text: string) => GuardrailVerdict> | undefined;
  return async (text) => (await (loaded ??= loadCheck(preset)))(text);
}

async function loadCheck(preset: 'strict' | 'moderate' | 'lenient'): Promise<(text: string) => GuardrailVerdict> {
  const vard = ((await import('@andersmyrmel/vard')) as Vard).default;
  // The run's guardrail limit bounds the text; vard's own default (10,000) would refuse longer results.
  let guard = vard[preset]().maxLength(Number.MAX_SAFE_INTEGER);
  for (const pattern of EXTRA_PATTERNS) guard = guard.pattern(pattern, 0.9, 'instructionOverride');
  return (text) => {
    const result = guard.safeParse(text);
    if (!result.safe) {
      const types = [...new Set(result.threats.map((t) => t.type))].join(', ');
      return { verdict: 'block', reason: `possible prompt injection (${types})` };
    }
    return result.data === text
      ? { verdict: 'pass' }
      : { verdict: 'redact', text: result.data, reason: 'stripped delimiters or encoded text' };
  };
}
