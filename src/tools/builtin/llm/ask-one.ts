import type { ModelProvider } from '../../../domain/model/model-provider';
import {
  FailureType,
  SamplingSettings,
  type LlmAnswer,
  type ModelReply,
  type ModelRequest,
  type resolveModel,
} from '../../../domain';
import { costOf } from '../../../domain/model/pricing';
import type { ToolContext } from '../../define-tool';
import { ToolError } from '../../tool-error';
import type { AskModelInput } from './input-schema';

const DEFAULT_SYSTEM = 'Answer the question directly and concisely.';
const SAMPLING_NAMES = ['temperature', 'topP', 'topK', 'seed'] as const;

/** A registry model the tool may call, resolved once when the tool is defined. */
export type Target = ReturnType<typeof resolveModel>;

/** One model call of the tool: the model, and the call's settings shared by every model asked. */
export interface OneCall {
  alias: string;
  target: Target;
  provider: ModelProvider;
  args: AskModelInput;
  /** The tool's own ceiling of output tokens. */
  maxTokens: number;
  /** The answer is cut to this many characters (its share of the tool's maxResultChars). */
  maxChars: number;
}

/**
 * A registry entry's own sampling settings, when it has them. Read through a guard rather than
 * the entry's type, so this compiles whether or not the registry carries `sampling` yet.
 */
function registrySampling(target: Target): SamplingSettings {
  const parsed = SamplingSettings.safeParse((target as { sampling?: unknown }).sampling);
  return parsed.success ? parsed.data : {};
}

/** The call's sampling settings over the registry entry's; undefined when none is set, so none is sent. */
export function samplingOf(target: Target, args: AskModelInput): SamplingSettings | undefined {
  const sampling: SamplingSettings = { ...registrySampling(target) };
  for (const name of SAMPLING_NAMES) if (args[name] !== undefined) sampling[name] = args[name];
  return Object.keys(sampling).length > 0 ? sampling : undefined;
}

/** The request one model gets: the prompt alone, no tools, sampling only when set. */
export function requestOf(call: OneCall): ModelRequest {
  const { target, args } = call;
  const sampling = samplingOf(target, args);
  return {
    provider: target.provider,
    model: target.model,
    system: args.system ?? DEFAULT_SYSTEM,
    messages: [{ role: 'user', content: [{ type: 'text', text: args.prompt }] }],
    tools: [],
    toolChoice: 'auto',
    maxTokens: Math.min(args.maxTokens ?? call.maxTokens, target.maxTokens ?? call.maxTokens),
    ...(sampling ? { sampling } : {}),
  };
}

/**
 * Asks one model. Provider failures pass through as they are (an ApplicationFailure keeps its
 * own retry decision), but a sampling setting the provider refuses becomes a non-retryable
 * ToolError the agent can act on: it names the model and the setting.
 */
export async function askOne(
  call: OneCall,
  context: ToolContext,
): Promise<{ answer: LlmAnswer; text: string; durationMs: number }> {
  const request = requestOf(call);
  let reply: ModelReply;
  try {
    reply = await call.provider.complete(request, context.signal, { heartbeat: () => context.heartbeat() });
  } catch (err) {
    throw settingRefused(call, request, err) ?? err;
  }
  const text = reply.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  // Cut here, not by the activity: a cut envelope would lose the usage the run must count.
  const answer = withinEscapedSize(text, call.maxChars);
  const { target } = call;
  return {
    text,
    durationMs: reply.durationMs,
    answer: {
      model: reply.model,
      alias: call.alias,
      answer,
      stopReason: reply.stopReason,
      usage: reply.usage,
      // A registry price wins over the provider's table, as for the run's own model calls.
      costUsd: target.price ? costOf(target.model, reply.usage, { [target.model]: target.price }) : reply.costUsd,
      ...(answer.length < text.length ? { truncated: true } : {}),
    },
  };
}

/** A ModelSettingUnsupported failure as the agent's error; undefined for any other. */
function settingRefused(call: OneCall, request: ModelRequest, err: unknown): ToolError | undefined {
  // Matched by type, not class: the failure may come from another copy of @temporalio/common.
  if ((err as { type?: unknown } | null)?.type !== FailureType.ModelSettingUnsupported) return undefined;
  const said = err instanceof Error ? err.message : String(err);
  // The settings the provider's message names; a setting from the registry entry the agent cannot drop.
  const named = Object.keys(request.sampling ?? {}).filter((name) => said.includes(name));
  const fromCall = named.filter((name) => call.args[name as keyof AskModelInput] !== undefined);
  const advice =
    fromCall.length > 0
      ? `ask again without ${fromCall.join(', ')}, or pick another model`
      : 'its registry entry sets it, so pick another model';
  const what = named.length > 0 ? named.join(', ') : 'a sampling setting it was given';
  return new ToolError(`Model "${call.alias}" does not take ${what}: ${advice}. (${said})`, {
    retryable: false,
    cause: err,
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
