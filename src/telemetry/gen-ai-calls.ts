import { SpanKind, type Attributes } from '@opentelemetry/api';
import type { ModelCallInput, ModelReply, ToolInvocation, ToolOutput } from '../domain';
import { Attr, Operation } from './workflows/attribute-names';

/** What an activity's span is called and carries before it runs; `kind` says which metrics it feeds. */
export interface CallStart {
  kind: 'model' | 'tool' | 'other';
  spanName: string;
  spanKind: SpanKind;
  attributes: Attributes;
}

/**
 * The GenAI view of an activity's input: names, ids and models, read from the activity's own wire
 * types. Never the system prompt, the messages, the tools' schemas or a tool's arguments.
 */
export function callStart(activityType: string, input: unknown): CallStart {
  if (activityType === 'callModel' && isObject(input)) {
    const { provider, model } = input as Partial<ModelCallInput>;
    return {
      kind: 'model',
      spanName: `${Operation.chat} ${String(model)}`,
      spanKind: SpanKind.CLIENT,
      attributes: {
        [Attr.operationName]: Operation.chat,
        [Attr.providerName]: String(provider),
        [Attr.requestModel]: String(model),
      },
    };
  }
  if (activityType === 'runTool' && isObject(input)) {
    const { toolName, idempotencyKey } = input as Partial<ToolInvocation>;
    return {
      kind: 'tool',
      spanName: `${Operation.executeTool} ${String(toolName)}`,
      spanKind: SpanKind.INTERNAL,
      // The idempotency key (workflow id and step id) is the call's id on every attempt.
      attributes: {
        [Attr.operationName]: Operation.executeTool,
        [Attr.toolName]: String(toolName),
        ...(typeof idempotencyKey === 'string' ? { [Attr.toolCallId]: idempotencyKey } : {}),
      },
    };
  }
  return { kind: 'other', spanName: activityType, spanKind: SpanKind.INTERNAL, attributes: {} };
}

/** A model reply's model, tokens, cost and stop reason; never its content. */
export function modelCallEnd(reply: unknown): Attributes {
  if (!isObject(reply)) return {};
  const { model, usage, costUsd, stopReason } = reply as Partial<ModelReply>;
  return {
    ...(typeof model === 'string' ? { [Attr.responseModel]: model } : {}),
    ...(typeof stopReason === 'string' ? { [Attr.finishReasons]: [stopReason] } : {}),
    ...(usage
      ? {
          [Attr.inputTokens]: usage.inputTokens,
          [Attr.outputTokens]: usage.outputTokens,
          [Attr.cacheReadTokens]: usage.cacheReadTokens,
          [Attr.cacheWriteTokens]: usage.cacheWriteTokens,
        }
      : {}),
    ...(typeof costUsd === 'number' ? { [Attr.costUsd]: costUsd } : {}),
  };
}

/** A tool's outcome as flags; never its result. */
export function toolCallEnd(output: unknown): Attributes {
  if (!isObject(output)) return {};
  const { truncated, needsInput } = output as Partial<ToolOutput>;
  return { [Attr.toolTruncated]: truncated === true, [Attr.toolNeedsInput]: needsInput !== undefined };
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;
