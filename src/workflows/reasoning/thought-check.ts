/**
 * Thought controls (seed 001 §2.2–2.4): a tool call needs a thought, and with `thoughtValidation`
 * the thought must say something. Pure and deterministic (workflow sandbox side); a refusal is
 * an observation the model reads, never an exception.
 */
import type { AgentInput } from '../../domain';
import { fnv1a } from '../core/stable-hash';

export type ThoughtVerdict = { ok: true } | { ok: false; problem: string };

/** Words that carry no reasoning of their own: "I will now use the tool" is all filler. */
const FILLER: ReadonlySet<string> = new Set(
  (
    'i im ill will shall now let lets me my we our us you use using used call calling called run running invoke ' +
    'invoking execute executing the a an this that these it its to of for with on in at by and then so ok okay ' +
    'going gonna am is are be do does doing go next step first tool tools function action try trying want ' +
    'need needs should must can could would just please here start starting'
  ).split(' '),
);

/** Letters and digits of any script, lower case, as words: how thoughts are compared. */
export function thoughtWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A short fingerprint of a thought after normalising case, spaces and punctuation. */
export const thoughtKey = (text: string): string => fnv1a(thoughtWords(text).join(' '));

/** True when nothing is left once filler words and the called tools' names are taken out. */
export function isDegenerate(thought: string, toolNames: readonly string[]): boolean {
  const named = new Set(toolNames.flatMap((name) => thoughtWords(name.replace(/[_-]+/g, ' '))));
  return thoughtWords(thought).filter((w) => !FILLER.has(w) && !named.has(w)).length === 0;
}

/**
 * Judges the thought written before a turn's tool calls. `previousKey` is the thoughtKey of the
 * turn before, for the repeat check.
 */
export function checkThought(
  thought: string | undefined,
  input: Pick<AgentInput, 'requireThought' | 'thoughtValidation' | 'labels' | 'strategy'>,
  toolNames: readonly string[],
  previousKey: string | undefined,
): ThoughtVerdict {
  const text = thought?.trim() ?? '';
  const say = input.strategy === 'react-text' ? `a "${input.labels.thought}:" line` : 'your reasoning as text';
  if (!text) {
    return input.requireThought
      ? refuse(`a thought is required before every tool call. Write ${say} first`)
      : { ok: true };
  }
  const rules = input.thoughtValidation;
  if (!rules) return { ok: true };
  if (text.length < rules.minChars)
    return refuse(
      `the thought is too short (${text.length} characters, at least ${rules.minChars}). Say what you know, what you still need, and why this call`,
    );
  if (rules.refuseDegenerate && isDegenerate(text, toolNames))
    return refuse(
      `the thought only says that a tool will be used. Say what you know, what you still need, and why this call helps`,
    );
  if (rules.refuseRepeated && previousKey !== undefined && thoughtKey(text) === previousKey)
    return refuse('the thought repeats the previous one word for word. Reason about the last observation');
  return { ok: true };
}

const refuse = (why: string): ThoughtVerdict => ({
  ok: false,
  problem: `Not run: ${why}, then call the tool again.`,
});
