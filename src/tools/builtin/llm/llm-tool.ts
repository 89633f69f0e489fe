import { z } from 'zod';
import type { ModelProvider } from '../../../shared/model-provider';
import {
  resolveModel,
  type LlmAnswer,
  type ModelProviderName,
  type ModelRegistry,
  type ModelRequest,
} from '../../../shared';
import { costOf } from '../../../shared/pricing';
import { defineTool, InvalidToolDefinitionError, type ToolDefinition, type ToolOptions } from '../../define-tool';
import { ToolError } from '../../tool-error';

const DEFAULT_NAME = 'ask_model';
const DEFAULT_MAX_TOKENS = 1_024;
const DEFAULT_MAX_PROMPT_CHARS = 20_000;
const DEFAULT_MAX_RESULT_CHARS = 8_000;
/** Model calls take longer than most tools. */
const DEFAULT_TIMEOUT_MS = 120_000;
/** Largest maxTokens the option accepts: far above any model's output limit, so it only stops typos. */
const MAX_TOKENS_CEILING = 200_000;
const SYSTEM_CHARS = 4_000;
const DEFAULT_SYSTEM = 'Answer the question directly and concisely.';

/** The options every tool takes, but `type` (always `llm`: that is how the run counts its spend), input and execute. */
type SharedToolOptions = Omit<
  ToolOptions<z.ZodType, LlmAnswer>,
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
}

/** The tool's input: the model names are an enum of the allow-list, so any other name is refused before a call. */
function inputSchema(aliases: readonly [string, ...string[]], maxTokens: number, maxPromptChars: number) {
  return z
    .object({
      model: z.enum(aliases).describe('Which model answers.'),
      prompt: z
        .string()
        .min(1)
        .max(maxPromptChars)
        .describe('The whole question: the model sees nothing else of this conversation.'),
      system: z.string().max(SYSTEM_CHARS).optional().describe('Instructions for the answering model.'),
      maxTokens: z
        .number()
        .int()
        .positive()
        .max(maxTokens)
        .optional()
        .describe(`Most tokens the answer may have (default ${maxTokens}).`),
    })
    .strict();
}

/**
 * A built-in tool: the agent asks another model from the worker's registry a self-contained
 * question, picking it by name (`model: "fast"`) within an allow-list. It runs as a tool activity
 * with the registry's provider; its result carries the model, tokens and cost, which the
 * workflow adds to the run's one ledger (budgets included) and shows as an `llm` step.
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
    ...shared
  } = options;
  const problem = (text: string) => new InvalidToolDefinitionError(`Tool "${name}": ${text}`);
  if (!Number.isInteger(maxTokens) || maxTokens <= 0 || maxTokens > MAX_TOKENS_CEILING)
    throw problem(`maxTokens must be an integer from 1 to ${MAX_TOKENS_CEILING}.`);
  if (!Number.isInteger(maxPromptChars) || maxPromptChars <= 0)
    throw problem('maxPromptChars must be a positive integer.');
  const aliases = [...new Set(chosen ?? registry.allowed ?? Object.keys(registry.models))];
  if (aliases.length === 0) throw problem('no models to choose from; name at least one registry model in `models`.');
  // Checked once here, so a call can only fail on the provider's side.
  const targets = new Map(
    aliases.map((alias) => {
      let target: ReturnType<typeof resolveModel>;
      try {
        target = resolveModel(registry, alias);
      } catch (err) {
        throw problem((err as Error).message);
      }
      if (!providers[target.provider])
        throw problem(`model "${alias}" needs the "${target.provider}" provider, which was not given.`);
      return [alias, target] as const;
    }),
  );
  const list = [...targets].map(([alias, t]) => `${alias} (${t.model})`).join(', ');
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
      `Ask another model a self-contained question and get its text answer. Pick a cheap model for simple sub-questions and a strong one for hard parts. Models: ${list}.`,
    input: inputSchema(aliases as [string, ...string[]], maxTokens, maxPromptChars),
    models: [...targets.values()].map((t) => ({ provider: t.provider, model: t.model })),
    async execute(args, context): Promise<LlmAnswer> {
      // The schema already holds the model to the allow-list; this guards a registry changed under a running worker.
      const target = targets.get(args.model);
      const provider = target && providers[target.provider];
      if (!target || !provider)
        throw new ToolError(`Model "${args.model}" is not allowed. Allowed: ${aliases.join(', ')}.`, {
          retryable: false,
        });
      // The worker's own allow-list too: an organisation's registry is never bypassed by a tool's.
      if (context.isModelAllowed && !context.isModelAllowed(target.provider, target.model)) {
        throw new ToolError(
          `Model "${args.model}" (${target.provider}/${target.model}) is not allowed by this worker's model registry.`,
          { retryable: false },
        );
      }
      const request: ModelRequest = {
        provider: target.provider,
        model: target.model,
        system: args.system ?? DEFAULT_SYSTEM,
        messages: [{ role: 'user', content: [{ type: 'text', text: args.prompt }] }],
        tools: [],
        toolChoice: 'auto',
        maxTokens: Math.min(args.maxTokens ?? maxTokens, target.maxTokens ?? maxTokens),
      };
      const reply = await provider.complete(request, context.signal, { heartbeat: () => context.heartbeat() });
      const text = reply.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      // Cut here, not by the activity: a cut envelope would lose the usage the run must count.
      const answer = withinEscapedSize(text, maxResultChars);
      const cut = answer.length < text.length;
      return {
        model: reply.model,
        alias: args.model,
        answer,
        stopReason: reply.stopReason,
        usage: reply.usage,
        // A registry price wins over the provider's table, as for the run's own model calls.
        costUsd: target.price ? costOf(target.model, reply.usage, { [target.model]: target.price }) : reply.costUsd,
        ...(cut ? { truncated: true } : {}),
      };
    },
  });
}

/**
 * The answer cut to `maxChars`, and further until its JSON form fits twice that: the workflow
 * lets the activity return that much, so escapes (`\u0001` is six characters) can never make the
 * activity cut the envelope and lose the usage the run must count.
 */
export function withinEscapedSize(text: string, maxChars: number): string {
  let answer = text.length > maxChars ? text.slice(0, maxChars) : text;
  while (JSON.stringify(answer).length - 2 > 2 * maxChars) answer = answer.slice(0, Math.floor(answer.length * 0.9));
  return answer;
}
