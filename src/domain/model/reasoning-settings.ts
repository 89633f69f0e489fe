import { z } from 'zod';

/** Seed 001 §2.4.2: what each thought should answer. Users replace it with `thoughtPrompt`. */
export const DEFAULT_THOUGHT_PROMPT = [
  'Based on the current state of the task:',
  '- What do I know so far?',
  '- What do I still need to find out or accomplish?',
  '- What is the most logical next step?',
  '- Which tool or action would best accomplish this step?',
  '',
  'Think step by step before deciding on an action.',
].join('\n');

/** Longest label: a label is one short word or two, at the start of a line. */
export const MAX_LABEL_CHARS = 30;
/** Longest thought prompt, in characters: it is carried into every continue-as-new. */
export const MAX_THOUGHT_PROMPT_CHARS = 8_000;

/** Letters (any script), spaces and `_`; the parser compares labels by their letters, case-insensitively. */
const Label = z
  .string()
  .trim()
  .min(1)
  .max(MAX_LABEL_CHARS)
  // A refine, not .regex(): zod resets a pattern's lastIndex, which the workflow sandbox has frozen.
  .refine((label) => /^\p{L}[\p{L} _]*$/u.test(label), {
    message: 'a label is letters (any script), spaces or _, starting with a letter',
  });

/** The text protocol's labels (docs/react-text.md): the prompt, the parser and the stop sequence follow them. */
export const ReActLabels = z
  .object({
    thought: Label.default('Thought'),
    action: Label.default('Action'),
    actionInput: Label.default('Action Input'),
    observation: Label.default('Observation'),
    finalAnswer: Label.default('Final Answer'),
    confidence: Label.default('Confidence'),
  })
  .refine((labels) => new Set(Object.values(labels).map(labelKey)).size === Object.keys(labels).length, {
    message: 'each ReAct label must differ from the others (compared by their letters, case-insensitively)',
  });
export type ReActLabels = z.infer<typeof ReActLabels>;

/** How the parser compares labels: letters only, lower case (`**Action Input:**` ≡ `action_input:`). */
export function labelKey(label: string): string {
  return label.replace(/[^\p{L}]/gu, '').toLowerCase();
}

/** Thought validation (seed 001 §2.4.3); absent means thoughts are not judged beyond `requireThought`. */
export const ThoughtValidation = z.object({
  /** A thought shorter than this many characters (trimmed) is refused. */
  minChars: z.number().int().nonnegative().max(2_000).default(20),
  /** Refuse a thought that says nothing but "I will use the tool" (no word of its own besides the tool's name). */
  refuseDegenerate: z.boolean().default(true),
  /** Refuse a thought identical (after normalising case, spaces and punctuation) to the one before it. */
  refuseRepeated: z.boolean().default(true),
});
export type ThoughtValidation = z.infer<typeof ThoughtValidation>;

/** A confidence: a number from 0 (a guess) to 1 (certain). */
export const Confidence = z.number().min(0).max(1);
