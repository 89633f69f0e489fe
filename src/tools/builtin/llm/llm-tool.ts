import type { z } from 'zod';
import type { ModelProvider } from '../../../domain/model/model-provider';
import { priceFor } from '../../../domain/model/pricing';
import {
  MAX_MODEL_CHOICES,
  modelChoiceLine,
  registeredTier,
  resolveModel,
  type LlmToolResult,
  type ModelChoice,
  type ModelProviderName,
  type ModelRegistry,
} from '../../../domain';
import {
  defineTool,
  InvalidToolDefinitionError,
  type ToolContext,
  type ToolDefinition,
  type ToolOptions,
} from '../../define-tool';
import { ToolError } from '../../tool-error';
import { askOne, type OneCall, type Target } from './ask-one';
import { askConsensus } from './consensus';
import { inputSchema, type AskModelInput } from './input-schema';

const DEFAULT_NAME = 'ask_model';
const DEFAULT_MAX_TOKENS = 1_024;
const DEFAULT_MAX_PROMPT_CHARS = 20_000;
const DEFAULT_MAX_RESULT_CHARS = 8_000;
/** Model calls take longer than most tools. */
const DEFAULT_TIMEOUT_MS = 120_000;
/** Largest maxTokens the option accepts: far above any model's output limit, so it only stops typos. */
const MAX_TOKENS_CEILING = 200_000;

/** The options every tool takes, but `type` (always `llm`: that is how the run counts its spend), input and execute. */
type SharedToolOptions = Omit<
  ToolOptions<z.ZodType, LlmToolResult>,
  'name' | 'description' | 'type' | 'input' | 'execute' | 'models'
>;

export interface LlmToolOptions extends SharedToolOptions {
  /** Default `ask_model`. */
  name?: string;
  /** Default: says what the tool is for and lists the models. */
  description?: string;
  /** The worker's model registry: names, provider ids, allow-list. */
  registry: ModelRegistry;
  /** The worker's providers; every chosen model's provider must be here. */
  providers: Readonly<Partial<Record<ModelProviderName, ModelProvider>>>;
  /** Registry names the agent may pick; default every name the registry allows. Each must be allowed there. */
  models?: readonly string[];
  /** The most output tokens one call may ask for, and the default. Default 1,024; a registry entry's own maxTokens lowers it. */
  maxTokens?: number;
  /** Longest prompt accepted, in characters. Default 20,000. */
  maxPromptChars?: number;
  /**
   * A registry name: the model that groups a consensus's free-text answers the rules leave apart
   * (one more call, counted like the others; docs/tools-llm.md). Default none: the rules alone.
   */
  consensusJudge?: string;
}

/**
 * A built-in tool: the agent asks another model from the worker's registry a self-contained
 * question, picking it by name (`model: "fast"`) within an allow-list, with optional sampling
 * settings; or asks 2–5 of them at once (`mode: "consensus"`) and learns how far they agree. It
 * runs as one tool activity with the registry's providers; its result carries each model, its
 * tokens and cost, which the workflow adds to the run's one ledger (budgets included) and shows
 * as `llm` steps.
 */
export function createLlmTool(options: LlmToolOptions): ToolDefinition {
  const {
    registry,
    providers,
    name = DEFAULT_NAME,
    maxTokens = DEFAULT_MAX_TOKENS,
    maxPromptChars = DEFAULT_MAX_PROMPT_CHARS,
    models: chosen,
    description,
    consensusJudge,
    ...shared
  } = options;
  const problem = (text: string) => new InvalidToolDefinitionError(`Tool "${name}": ${text}`);
  if (!Number.isInteger(maxTokens) || maxTokens <= 0 || maxTokens > MAX_TOKENS_CEILING)
    throw problem(`maxTokens must be an integer from 1 to ${MAX_TOKENS_CEILING}.`);
  if (!Number.isInteger(maxPromptChars) || maxPromptChars <= 0)
    throw problem('maxPromptChars must be a positive integer.');
  const aliases = [...new Set(chosen ?? registry.allowed ?? Object.keys(registry.models))];
  if (aliases.length === 0) throw problem('no models to choose from; name at least one registry model in `models`.');
  if (aliases.length > MAX_MODEL_CHOICES)
    throw problem(`offers ${aliases.length} models; name at most ${MAX_MODEL_CHOICES} in \`models\`.`);
  // Checked once here, so a call can only fail on the provider's side.
  const resolved = (alias: string): Target => {
    let target: Target;
    try {
      target = resolveModel(registry, alias);
    } catch (err) {
      throw problem((err as Error).message);
    }
    if (!providers[target.provider])
      throw problem(`model "${alias}" needs the "${target.provider}" provider, which was not given.`);
    return target;
  };
  const targets = new Map(aliases.map((alias) => [alias, resolved(alias)] as const));
  const judgeOf = (alias: string): Omit<OneCall, 'args' | 'maxChars'> => {
    const target = resolved(alias);
    return { alias, target, provider: providers[target.provider]!, maxTokens };
  };
  const judge = consensusJudge === undefined ? undefined : judgeOf(consensusJudge);
  const choices = [...targets].map(([alias, t]) => modelChoice(registry, alias, t));
  const list = choices.map(modelChoiceLine).join(', ');
  const maxResultChars = shared.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;

  return defineTool({
    effects: 'none',
    timeoutMs: DEFAULT_TIMEOUT_MS,
    ...shared,
    maxResultChars,
    name,
    type: 'llm',
    description:
      description ??
      `Ask another model a self-contained question and get its text answer. Pick a cheap model for simple sub-questions and a strong one for hard parts, or leave \`model\` out: the run then picks the cheapest model whose tier covers the current plan task's complexity (else ${aliases[0]}).${
        aliases.length >= 2
          ? ' To check an answer, ask several models at once (`models` with mode "consensus") and see how far they agree.'
          : ''
      } Models: ${list}.`,
    input: inputSchema(aliases as [string, ...string[]], maxTokens, maxPromptChars),
    // The judge is listed for the worker's allow-list; with no alias it is no routing choice.
    models: [
      ...choices.map((c) => ({ ...c, provider: targets.get(c.alias)!.provider })),
      ...(judge ? [{ provider: judge.target.provider, model: judge.target.model }] : []),
    ],
    async execute(input, context): Promise<LlmToolResult> {
      const args = input as AskModelInput;
      // The workflow names the model of a call that gave none; a call from elsewhere gets the default.
      const names = args.models ?? [args.model ?? aliases[0]!];
      const maxChars = Math.floor(maxResultChars / names.length);
      const calls = names.map((alias): OneCall => {
        const target = targets.get(alias);
        const provider = target && providers[target.provider];
        // The schema already holds the models to the allow-list; this guards a registry changed under a running worker.
        if (!target || !provider)
          throw new ToolError(`Model "${alias}" is not allowed. Allowed: ${aliases.join(', ')}.`, { retryable: false });
        allowedByWorker(alias, target, context);
        return { alias, target, provider, args, maxTokens, maxChars };
      });
      if (args.mode === 'consensus') {
        if (judge) allowedByWorker(judge.alias, judge.target, context);
        return askConsensus(calls, context, judge);
      }
      return (await askOne(calls[0]!, context)).answer;
    },
  });
}

/** One offered model with its tier and price: the registry entry's own price, else the built-in list price. */
function modelChoice(registry: ModelRegistry, alias: string, target: Target): ModelChoice {
  const tier = registeredTier(registry, alias);
  const price = target.price ?? priceFor(target.model);
  return {
    alias,
    model: target.model,
    ...(tier ? { tier } : {}),
    ...(price ? { price: { input: price.input, output: price.output } } : {}),
  };
}

/** The worker's own allow-list too: an organisation's registry is never bypassed by a tool's. */
function allowedByWorker(alias: string, target: Target, context: ToolContext): void {
  if (context.isModelAllowed && !context.isModelAllowed(target.provider, target.model)) {
    throw new ToolError(
      `Model "${alias}" (${target.provider}/${target.model}) is not allowed by this worker's model registry.`,
      { retryable: false },
    );
  }
}
