import { setTimeout as sleep } from 'node:timers/promises';
import type { ModelProvider } from '../../src/activities';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { zeroUsage, type AssistantBlock, type ModelRequest, type ToolUseBlock } from '../../src/domain';
import { BENCH_TOOL } from './bench-tools';

/** What a run asks of the bench model. */
export interface BenchPlan {
  /** Calls to the bench tool before the run ends. */
  iterations: number;
  /** After the last tool call, ask a person (the run waits for an `answer`) before finishing. */
  askAtEnd?: boolean;
}

const PLAN = /bench plan: (\d+) iterations( then ask)?/;

/**
 * The start fields that carry a plan to the bench model. The plan rides in the system prompt,
 * which every call carries whole, so one stateless model serves every run.
 */
export function benchRun(plan: BenchPlan): { task: string; systemPrompt: string } {
  return {
    task: 'Benchmark run',
    systemPrompt: `bench plan: ${plan.iterations} iterations${plan.askAtEnd ? ' then ask' : ''}`,
  };
}

/**
 * A model that answers from the request alone: it calls the bench tool with n = 1, 2, … up to
 * the plan's iterations, then (optionally) asks a person, then calls finish. The count comes from
 * its own last call, which a long run's trimmed conversation always keeps. Unlike the scripted
 * model it holds no per-run state, so a thousand concurrent runs can share it.
 * `delayMs` stands in for the model's latency; the wait ends early when the activity is cancelled.
 */
export function createBenchModel(opts: { delayMs?: number } = {}): ModelProvider {
  return {
    name: 'scripted',
    async complete(request, signal) {
      if (opts.delayMs) await sleep(opts.delayMs, undefined, { signal });
      return {
        content: nextTurn(request),
        stopReason: 'tool_use',
        model: request.model,
        usage: { ...zeroUsage(), inputTokens: 100, outputTokens: 20 },
        costUsd: 0,
        durationMs: opts.delayMs ?? 0,
      };
    },
  };
}

/**
 * The next turn, with a thought before its call as a model following the default prompt gives
 * (`requireThought` refuses a call without one, and the run would stall at its first).
 */
function nextTurn(request: ModelRequest): AssistantBlock[] {
  const plan = PLAN.exec(request.system);
  if (!plan)
    return [say('There is no plan to follow.'), useTool('finish', { result: 'No bench plan in the system prompt.' })];
  const last = lastToolUse(request);
  if (last?.name === 'ask_person')
    return [say('The person answered.'), useTool('finish', { result: 'Answered; done.' })];
  const done = last?.name === BENCH_TOOL ? Number(last.input['n']) : 0;
  if (done < Number(plan[1]))
    return [say(`Step ${done + 1} of ${plan[1]}: calling ${BENCH_TOOL}.`), useTool(BENCH_TOOL, { n: done + 1 })];
  if (plan[2])
    return [say('Every step is done; a person decides the end.'), useTool('ask_person', { question: 'May I finish?' })];
  return [say('Every step is done.'), useTool('finish', { result: `Called ${BENCH_TOOL} ${done} times.` })];
}

function lastToolUse(request: ModelRequest): ToolUseBlock | undefined {
  const assistant = request.messages.filter((m) => m.role === 'assistant').pop();
  return assistant?.content.filter((b): b is ToolUseBlock => b.type === 'tool_use').pop();
}
