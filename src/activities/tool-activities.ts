import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { FailureType, type ToolInvocation, type ToolOutput, type ToolSpec } from '../shared';
import { cutToSize, toJsonSafe } from '../tools/json-safe';
import type { ToolRegistry } from '../tools/tool-registry';
import type { Redactor } from './redact-secrets';

export interface ToolActivityDeps {
  tools: ToolRegistry;
  redact: Redactor;
  /** How often a running tool heartbeats, so a cancel reaches it. Default 500 ms. */
  heartbeatEveryMs?: number;
}

export function createToolActivities({ tools, redact, heartbeatEveryMs = 500 }: ToolActivityDeps) {
  return {
    /** Specs of the run's tools; recorded in history, so a replay sees the tool set the run began with. */
    async describeTools(names?: string[]): Promise<ToolSpec[]> {
      try {
        return tools.specs(names);
      } catch (err) {
        throw ApplicationFailure.create({ type: FailureType.ToolNotRegistered, message: (err as Error).message, nonRetryable: true });
      }
    },

    /** Runs one tool call. Thrown errors are retried under the tool's own retry policy. */
    async runTool(call: ToolInvocation): Promise<ToolOutput> {
      const tool = tools.get(call.toolName);
      if (!tool) {
        const message = `Tool "${call.toolName}" is not registered on this worker.`;
        throw ApplicationFailure.create({ type: FailureType.ToolNotRegistered, message, nonRetryable: true });
      }
      const ctx = Context.current();
      const args = tool.input.safeParse(call.arguments);
      if (!args.success) {
        const message = `Invalid arguments for ${tool.name}: ${args.error.message}`;
        throw ApplicationFailure.create({ type: FailureType.ToolFailed, message, nonRetryable: true });
      }
      const started = Date.now();
      let value: unknown;
      // Cancellation reaches an activity only through heartbeats: send them while the tool works.
      const keepAlive = setInterval(() => ctx.heartbeat(), heartbeatEveryMs);
      try {
        value = await tool.execute(args.data, {
          idempotencyKey: call.idempotencyKey,
          signal: ctx.cancellationSignal,
          heartbeat: (details) => ctx.heartbeat(details),
        });
      } catch (err) {
        if (err instanceof ApplicationFailure) throw err;
        if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
        const message = String(redact(`${tool.name} failed: ${err instanceof Error ? err.message : String(err)}`));
        throw ApplicationFailure.create({ type: FailureType.ToolFailed, message });
      } finally {
        clearInterval(keepAlive);
      }
      const { result, truncated } = cutToSize(redact(toJsonSafe(value)), call.maxResultChars);
      return { result, truncated, durationMs: Date.now() - started };
    },
  };
}
