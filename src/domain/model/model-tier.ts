import { z } from 'zod';

/**
 * How capable (and so how dear) a registered model is, in the planner's own words for a task's
 * complexity: a `low` task needs a model of tier `low` or above. Docs call them fast, balanced, strong.
 */
export const ModelTier = z.enum(['low', 'medium', 'high']);
export type ModelTier = z.infer<typeof ModelTier>;

/** Most models one tool may offer (ask_model lists each in its description and spec). */
export const MAX_MODEL_CHOICES = 32;
/** Longest routing reason a call step carries. */
export const MAX_ROUTED_CHARS = 300;

/**
 * One model a tool offers, as its spec carries it to the workflow: the name the agent picks it
 * by, the provider's id, its tier and its price in USD per million input and output tokens (the
 * registry entry's own, else the built-in list price; absent when neither knows it).
 */
export const ModelChoice = z.object({
  alias: z.string().min(1).max(128),
  model: z.string().min(1).max(256),
  tier: ModelTier.optional(),
  price: z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() }).optional(),
});
export type ModelChoice = z.infer<typeof ModelChoice>;

/** "fast (claude-haiku-4-5; tier low; $1/$5 per Mtok in/out)": one model as ask_model and `thoughtline tools` list it. */
export function modelChoiceLine(choice: ModelChoice): string {
  const tier = choice.tier ? `; tier ${choice.tier}` : '';
  const price = choice.price ? `$${choice.price.input}/$${choice.price.output} per Mtok in/out` : 'price unknown';
  return `${choice.alias} (${choice.model}${tier}; ${price})`;
}

/** The plan task a call is made for: its id and the planner's estimate, if it gave one. */
export interface RoutedTask {
  id: string;
  complexity?: ModelTier;
}

/** The model a call that named none goes to, and why (recorded on its call step). */
export interface ModelRoute {
  alias: string;
  reason: string;
}

const RANK: Readonly<Record<ModelTier, number>> = { low: 0, medium: 1, high: 2 };
/** Priced models compare by input plus output price; an unpriced one is never taken for cheaper. */
const cost = (c: ModelChoice): number => (c.price ? c.price.input + c.price.output : Number.POSITIVE_INFINITY);

/**
 * Routing by complexity: the cheapest model whose tier covers the task's complexity (ties keep
 * the tool's order); the tool's default (first) model when routing is off, no task is in
 * progress, the task has no estimate, or no model's tier covers it. Pure and deterministic.
 */
export function chooseByComplexity(
  choices: readonly [ModelChoice, ...ModelChoice[]],
  task: RoutedTask | undefined,
  routing: boolean,
): ModelRoute {
  const fallback = (why: string): ModelRoute => ({
    alias: choices[0].alias,
    reason: cut(`${why}: ${choices[0].alias}, the default model`),
  });
  if (!routing) return fallback('routing is off (planning.routeModels: false)');
  if (!task) return fallback('no plan task is in progress');
  const id = task.id.slice(0, 64);
  const { complexity } = task;
  if (!complexity) return fallback(`task ${id} has no complexity estimate`);
  const covering = choices.filter((c) => c.tier !== undefined && RANK[c.tier] >= RANK[complexity]);
  const cheapest = covering.reduce<ModelChoice | undefined>(
    (best, c) => (!best || cost(c) < cost(best) ? c : best),
    undefined,
  );
  if (!cheapest)
    return fallback(`task ${id} is ${complexity} complexity, and no model is of tier ${complexity} or above`);
  return {
    alias: cheapest.alias,
    reason: cut(
      `task ${id} is ${complexity} complexity: ${cheapest.alias}, the cheapest model of tier ${complexity} or above`,
    ),
  };
}

const cut = (text: string): string => text.slice(0, MAX_ROUTED_CHARS);
