// The ReAct loop as a Workflow SDK workflow: the "use workflow" function is the loop, and each
// model call and each tool call is its own "use step" function, as the SDK's docs write them.
// This file is compiled by the SDK's builder (../builder.mjs) into step and flow bundles.
import { setTimeout as sleep } from 'node:timers/promises';
import { getWorkflowMetadata } from 'workflow';
import { modelDelay, modelTurn, observation } from '../../lib/loop-script.mjs';
import { createMarks } from '../../lib/marks.mjs';

// Marks go to files named by the run; the directory comes from the process environment, not
// the workflow input, so it is not part of the stored state (and a replacement process sets it).
let marks;
function mark(kind, index, phase, settings) {
  if (!settings.marked || !process.env.BENCH_MARKS_DIR) return;
  marks ??= createMarks(process.env.BENCH_MARKS_DIR);
  marks.mark(getWorkflowMetadata().workflowRunId, kind, index, phase);
}

/** The model step: given the conversation so far, as a real model call would be. */
async function callModel(messages, settings) {
  'use step';
  const toolResults = messages.filter((m) => m.role === 'tool').length;
  mark('model', toolResults, 'start', settings);
  await modelDelay(settings.modelDelayMs);
  const turn = modelTurn({
    toolResults,
    iterations: settings.iterations,
    conversationChars: JSON.stringify(messages).length,
  });
  mark('model', toolResults, 'end', settings);
  return turn;
}

/** The tool step; call `slowAt` sleeps `slowToolMs` (the recover scenario kills it there). */
async function callTool(call, settings) {
  'use step';
  const { n } = call.input;
  mark('tool', n, 'start', settings);
  if (n === settings.slowAt && settings.slowToolMs > 0) await sleep(settings.slowToolMs);
  const text = observation(n, settings.observationBytes);
  mark('tool', n, 'end', settings);
  return text;
}

/**
 * settings: { task, iterations, modelDelayMs, observationBytes, marked, slowAt?, slowToolMs? }.
 * Returns { answer, maxInputTokens }.
 */
export async function agentLoop(settings) {
  'use workflow';
  const messages = [{ role: 'user', content: settings.task }];
  let maxInputTokens = 0;
  for (;;) {
    const turn = await callModel(messages, settings);
    maxInputTokens = Math.max(maxInputTokens, turn.inputTokens);
    if (!turn.call) return { answer: turn.answer, maxInputTokens };
    messages.push({ role: 'assistant', content: turn.thought, toolCalls: [turn.call] });
    const result = await callTool(turn.call, settings);
    messages.push({ role: 'tool', name: turn.call.name, content: result });
  }
}
