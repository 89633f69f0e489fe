import { z } from 'zod';
import { ModelOverride } from '../model/model-settings';
import { utf8Bytes } from '../run/payload-size';
import { fnv1a } from '../text/fnv1a';
import { AgentBudget } from './agent-budget';
import { AgentExamples, AgentPrompt, AgentTools, examplesBytes } from './agent-parts';

/*
 * A live experiment (docs/evaluation.md, "Live experiments"): an agent definition names two or
 * more variants with weights; each run is assigned one by a pure hash of the experiment's name
 * and a key (its caller, its thread, or itself), so the same key always gets the same variant.
 * Sandbox-safe and pure: the workflow assigns, the report reads the same names.
 */

/** Most variants one experiment splits runs between. */
export const MAX_VARIANTS = 10;
/** Largest weight of one variant; weights are relative (50/50, 9/1 and 0.9/0.1 split alike). */
export const MAX_VARIANT_WEIGHT = 10_000;
/** Most all variants' prompts and examples add up to (UTF-8 bytes): every run carries them. */
export const MAX_VARIANTS_BYTES = 64 * 1024;

/** Lower case letters, digits, `.`, `_`, `-`, starting with a letter or digit, at most 64: a search attribute value and a flag. */
const EXPERIMENT_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const nameRule = (what: string) =>
  `${what} is 1–64 characters of lower case letters, digits, ".", "_" and "-", starting with a letter or digit.`;
export const ExperimentName = z.string().regex(EXPERIMENT_NAME_PATTERN, { message: nameRule('An experiment name') });
export const VariantName = z.string().regex(EXPERIMENT_NAME_PATTERN, { message: nameRule('A variant name') });

/**
 * What a run is assigned by. `caller`: the caller's id (one person always sees one variant);
 * `thread`: the conversation a thread's turn belongs to (one thread, one variant); `tenant`: the
 * caller's tenant; `run`: the run's own workflow id (a fresh draw per run). A run without the
 * key (no caller, not a thread's turn, no tenant) is assigned by its workflow id.
 */
export const ExperimentKey = z.enum(['caller', 'thread', 'tenant', 'run']);
export type ExperimentKey = z.infer<typeof ExperimentKey>;

/**
 * One variant: its name, its weight, and what it replaces of the definition for the runs assigned
 * to it. Strict, so a misspelt override is refused when the agent is defined, never ignored.
 * `model` replaces the fields it sets of the run's model (the caller's choice included: that is
 * what is tested); `budget` the fields it sets of the agent's budget; the rest replace whole.
 */
export const AgentVariant = z.strictObject({
  name: VariantName,
  weight: z
    .number()
    .positive({ message: 'A variant weight must be more than 0.' })
    .max(MAX_VARIANT_WEIGHT, { message: `A variant weight is at most ${MAX_VARIANT_WEIGHT}.` }),
  systemPrompt: AgentPrompt.optional(),
  examples: AgentExamples.optional(),
  tools: AgentTools.optional(),
  model: ModelOverride.strict().optional(),
  budget: AgentBudget.optional(),
});
export type AgentVariant = z.infer<typeof AgentVariant>;

const variantBytes = (v: AgentVariant): number => utf8Bytes(v.systemPrompt ?? '') + examplesBytes(v.examples ?? []);

export const AgentExperiment = z.strictObject({
  name: ExperimentName,
  assignBy: ExperimentKey,
  variants: z
    .array(AgentVariant)
    .min(2, { message: 'An experiment needs at least two variants.' })
    .max(MAX_VARIANTS, { message: `An experiment has at most ${MAX_VARIANTS} variants.` })
    .refine((vs) => new Set(vs.map((v) => v.name)).size === vs.length, {
      message: 'An experiment must not name a variant twice.',
    })
    .refine((vs) => vs.reduce((n, v) => n + variantBytes(v), 0) <= MAX_VARIANTS_BYTES, {
      message: `An experiment's variants' prompts and examples must add up to at most ${MAX_VARIANTS_BYTES} bytes (UTF-8): every run carries them into each continue-as-new.`,
    }),
});
export type AgentExperiment = z.infer<typeof AgentExperiment>;
export type AgentExperimentInit = z.input<typeof AgentExperiment>;

/** The variant a run was assigned, as its chain, result and search attributes record it. */
export const ExperimentRef = z.object({
  name: z.string(),
  variant: z.string(),
  /** What assigned it: the experiment's key, or `run` when the run had none (the fallback). */
  by: ExperimentKey,
});
export type ExperimentRef = z.infer<typeof ExperimentRef>;

/** What a run knows that an experiment may be keyed on. */
export interface ExperimentSubject {
  workflowId: string;
  callerId?: string;
  tenant?: string;
  /** The thread's workflow id when the run is one of its turns. */
  threadId?: string;
}

/** The key a run is assigned by, and which kind it is: the experiment's own, else the run's workflow id. */
export function experimentKeyOf(by: ExperimentKey, subject: ExperimentSubject): { by: ExperimentKey; key: string } {
  const key =
    by === 'caller'
      ? subject.callerId
      : by === 'tenant'
        ? subject.tenant
        : by === 'thread'
          ? subject.threadId
          : undefined;
  return key !== undefined && key !== '' ? { by, key } : { by: 'run', key: subject.workflowId };
}

/** 32 well-mixed bits of `text`: FNV-1a, then MurmurHash3's finaliser, so keys that differ by one character spread evenly. */
export function stableUnitHash(text: string): number {
  let h = parseInt(fnv1a(text), 16);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return (h >>> 0) / 0x1_0000_0000;
}

/**
 * The variant of `experiment` for `key`: the point `stableUnitHash(name + NUL + key)` × the total
 * weight falls in one variant's share, in the order the variants are listed. Pure: the same name,
 * key and variants always give the same variant, on every worker and in every replay.
 */
export function assignVariant(experiment: Pick<AgentExperiment, 'name' | 'variants'>, key: string): AgentVariant {
  const total = experiment.variants.reduce((sum, v) => sum + v.weight, 0);
  let point = stableUnitHash(`${experiment.name}\u0000${key}`) * total;
  for (const variant of experiment.variants) {
    if (point < variant.weight) return variant;
    point -= variant.weight;
  }
  // Rounding can leave the point a hair past the last share.
  return experiment.variants[experiment.variants.length - 1]!;
}
