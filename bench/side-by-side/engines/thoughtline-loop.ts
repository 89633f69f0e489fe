import { Context } from '@temporalio/activity';
import { z } from 'zod';
import type { ModelProvider } from '../../../src/activities';
import { say, useTool } from '../../../src/activities/models/scripted-model';
import { zeroUsage, type ModelRequest, type ToolUseBlock } from '../../../src/domain';
import { defineTool, type ToolDefinition } from '../../../src/tools/define-tool';
import type { LoopScript, Marks } from './peer-loop-lib';

/** What one Thoughtline engine process runs: the shared loop script as a model and a tool. */
export interface LoopSettings {
  script: LoopScript;
  marks: Marks;
  iterations: number;
  modelDelayMs: number;
  observationBytes: number;
  /** The recover scenario: tool call `slowAt` sleeps `slowToolMs` in its step. */
  slowAt?: number;
  slowToolMs?: number;
  /** Told each model call's input tokens, for the largest conversation a run's model saw. */
  seen?: (runId: string, inputTokens: number) => void;
}

/** The plan rides in the system prompt, which every call carries, so one model serves every run. */
export const loopSystemPrompt = (iterations: number): string => `bench loop: ${iterations} iterations`;
const PLAN = /bench loop: (\d+) iterations/;

/** Every step's marks name the agent run: its workflow id, the same across continued runs. */
const runId = (): string => Context.current().info.workflowExecution?.workflowId ?? 'no-workflow';

/**
 * The shared script as a Thoughtline model. The count of tool results comes from the model's own
 * last call, which a long run's trimmed conversation always keeps; the answer ends the run
 * through `finish`, as every Thoughtline run ends.
 */
export function loopModel(settings: LoopSettings): ModelProvider {
  const { script, marks } = settings;
  return {
    name: 'scripted',
    async complete(request) {
      const id = runId();
      const done = lastLookup(request, script.TOOL_NAME);
      marks.mark(id, 'model', done, 'start');
      await script.modelDelay(settings.modelDelayMs);
      const iterations = Number(PLAN.exec(request.system)?.[1] ?? settings.iterations);
      const turn = script.modelTurn({
        toolResults: done,
        iterations,
        conversationChars: JSON.stringify(request.messages).length,
      });
      const content = turn.call
        ? [say(turn.thought), useTool(turn.call.name, turn.call.input)]
        : [say(turn.thought), useTool('finish', { result: turn.answer ?? '' })];
      settings.seen?.(id, turn.inputTokens);
      marks.mark(id, 'model', done, 'end');
      return {
        content,
        stopReason: 'tool_use',
        model: request.model,
        usage: { ...zeroUsage(), inputTokens: turn.inputTokens, outputTokens: turn.outputTokens },
        costUsd: 0,
        durationMs: settings.modelDelayMs,
      };
    },
  };
}

export function loopTool(settings: LoopSettings): ToolDefinition {
  const { script, marks } = settings;
  return defineTool({
    name: script.TOOL_NAME,
    description: 'Looks up result n',
    input: z.object({ n: z.number().int() }),
    async execute({ n }, ctx) {
      const id = runId();
      marks.mark(id, 'tool', n, 'start');
      if (n === settings.slowAt && settings.slowToolMs) await sleepUnlessAborted(settings.slowToolMs, ctx.signal);
      const text = script.observation(n, settings.observationBytes);
      marks.mark(id, 'tool', n, 'end');
      return text;
    },
  });
}

function lastLookup(request: ModelRequest, toolName: string): number {
  const assistant = request.messages.filter((m) => m.role === 'assistant').pop();
  const call = assistant?.content.filter((b): b is ToolUseBlock => b.type === 'tool_use').pop();
  return call?.name === toolName ? Number(call.input['n']) : 0;
}

function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
