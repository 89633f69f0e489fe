import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { FailureType, observationText, type ToolInvocation, type ToolOutput } from '../../domain';
import { ToolError } from '../../tools/tool-error';
import { toolRefusal } from '../tool-refusal';
import { redactToolResult, thrownText, type Redactor } from '../../tools/redact-secrets';
import type { KnownTexts } from '../conversation/known-texts';
import { isNeedsInput, isParked, marked, neededInput, parkedOn } from './mcp-activity-parts';
import type { McpTools } from './mcp-tools';

export interface McpTaskActivityDeps {
  mcp?: McpTools;
  redact: Redactor;
  texts?: KnownTexts;
}

/**
 * The two short activities a call parked on an MCP task runs between the workflow's timers: one
 * look at the task, and its cancellation. Neither holds a connection past its own request.
 */
export function createMcpTaskActivities({ mcp, redact, texts }: McpTaskActivityDeps) {
  const redactText = (text: string): string => {
    try {
      return String(redact(text));
    } catch {
      return '[message could not be redacted]';
    }
  };
  const tools = (toolName: string): McpTools => {
    if (mcp?.owns(toolName)) return mcp;
    throw ApplicationFailure.create({
      type: FailureType.ToolNotRegistered,
      message: `The MCP tool "${toolName}" is not on this worker.`,
      nonRetryable: true,
    });
  };
  const failure = (err: unknown, toolName: string): ApplicationFailure => {
    if (ToolError.is(err) && !err.retryable)
      return toolRefusal(toolName, redactText(thrownText(err)), {
        workflowId: Context.current().info.workflowExecution?.workflowId,
      });
    return ApplicationFailure.create({
      type: FailureType.ToolFailed,
      message: redactText(thrownText(err)),
      nonRetryable: false,
    });
  };

  return {
    /**
     * One look at the task `taskId` a call of `invocation` parked on: parked again (the server's
     * status and poll interval), the call's result (redacted and cut like runTool's), or a
     * question for a person. A final failure is `ToolRefused`; a server that is down is retried.
     */
    async pollMcpTask(invocation: ToolInvocation, taskId: string): Promise<ToolOutput> {
      const ctx = Context.current();
      const started = Date.now();
      let value: unknown;
      try {
        const outcome = await tools(invocation.toolName).poll(invocation, taskId, {
          signal: ctx.cancellationSignal,
          heartbeat: () => ctx.heartbeat(),
        });
        value = marked(outcome);
      } catch (err) {
        if (err instanceof ApplicationFailure) throw err;
        if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
        throw failure(err, invocation.toolName);
      }
      const base = { truncated: false, durationMs: Date.now() - started, attempts: ctx.info.attempt };
      if (isParked(value)) return { ...base, result: null, parked: parkedOn(value, redact) };
      if (isNeedsInput(value)) return { ...base, result: null, needsInput: neededInput(value, redact) };
      const { result, truncated } = redactToolResult(value, invocation.maxResultChars, redact);
      if (texts && result !== undefined) texts.remember(observationText(result));
      return { ...base, result, truncated };
    },

    /** Cancels the task a call parked on, when the run no longer waits for it (the run was cancelled, or gave up). */
    async cancelMcpTask(toolName: string, taskId: string): Promise<void> {
      try {
        await tools(toolName).cancelTask(toolName, taskId);
      } catch (err) {
        if (err instanceof ApplicationFailure) throw err;
        throw failure(err, toolName);
      }
    },
  };
}
