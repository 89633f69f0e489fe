import {
  proxyActivities,
  proxyLocalActivities,
  type ActivityOptions,
  type LocalActivityOptions,
} from '@temporalio/workflow';
import type { AgentActivities } from '../activities';
import type { ModelSettings, ToolSpec } from '../domain';
import { TOOL_HEARTBEAT_TIMEOUT_MS } from '../domain/tools/tool-heartbeat';

/** Defaults only; every model and tool call passes its own options through `executeWithOptions`. */
export const activities = proxyActivities<AgentActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 3 },
});

/** The same activities as local activities: only tools marked `local` run this way. */
export const localActivities = proxyLocalActivities<AgentActivities>({ startToCloseTimeout: '10 seconds' });

export function modelCallOptions(model: ModelSettings, summary: string): ActivityOptions {
  return {
    summary,
    startToCloseTimeout: model.timeoutMs,
    // Cancellation reaches an activity only through heartbeats; callModel heartbeats while it waits.
    heartbeatTimeout: model.heartbeatTimeoutMs,
    retry: {
      maximumAttempts: model.maximumAttempts,
      // Milliseconds, not '1 second': the SDK compiles this policy at every call, and a number needs no parsing.
      initialInterval: 1_000,
      backoffCoefficient: 2,
      maximumInterval: 60_000,
    },
  };
}

/** A tool's hook (its `validate` or `reconcile`) runs in the worker: within the tool's own limit, tried three times. */
export function toolHookOptions(spec: ToolSpec, hook: 'validate' | 'reconcile'): ActivityOptions {
  return {
    summary: `${hook} ${spec.name}`.slice(0, 200),
    startToCloseTimeout: spec.timeoutMs,
    retry: { maximumAttempts: 3, initialInterval: '1 second', backoffCoefficient: 2 },
  };
}

export function toolCallOptions(spec: ToolSpec, summary: string): ActivityOptions {
  return {
    summary,
    startToCloseTimeout: spec.timeoutMs,
    // Whatever the tool's own limit, a worker that dies mid-call is noticed within this; runTool heartbeats.
    heartbeatTimeout: TOOL_HEARTBEAT_TIMEOUT_MS,
    retry: {
      maximumAttempts: spec.retry.maximumAttempts,
      initialInterval: spec.retry.initialIntervalMs,
      backoffCoefficient: spec.retry.backoffCoefficient,
    },
  };
}

/**
 * One look at an MCP task a call parked on, and its cancellation: short requests, no heartbeat
 * (nothing runs long), tried as often as the tool's own calls.
 */
export function mcpTaskCallOptions(spec: ToolSpec, summary: string): ActivityOptions {
  return {
    summary,
    startToCloseTimeout: '1 minute',
    retry: {
      maximumAttempts: spec.retry.maximumAttempts,
      initialInterval: spec.retry.initialIntervalMs,
      backoffCoefficient: spec.retry.backoffCoefficient,
    },
  };
}

/** A local tool's options: the same limit and retries, run by the worker inside the workflow task (no heartbeats). */
export function localToolCallOptions(spec: ToolSpec, summary: string): LocalActivityOptions {
  const { startToCloseTimeout, retry } = toolCallOptions(spec, summary);
  return { summary, startToCloseTimeout, ...(retry ? { retry } : {}) };
}

/** Reading or keeping an agent's memory (`planning.memory`): a query or an update, quick; tried three times. */
export function memoryCallOptions(summary: string): ActivityOptions {
  return {
    summary,
    startToCloseTimeout: '30 seconds',
    retry: { maximumAttempts: 3, initialInterval: '1 second', backoffCoefficient: 2 },
  };
}
/** Plan reuse (`cache.plans`): a quick lookup and store in the worker's cache; one retry, then a miss. */
export const planCacheActivities = proxyActivities<AgentActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 2 },
  summary: 'plan cache',
});
