// The ReAct loop as one DBOS workflow: every model call and every tool call is its own
// checkpointed step (DBOS.runStep), as the DBOS docs write a workflow of steps.
import { setTimeout as sleep } from 'node:timers/promises';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { TOOL_NAME, modelDelay, modelTurn, observation } from '../lib/loop-script.mjs';
import { createMarks } from '../lib/marks.mjs';

// Marks go to files named by the run, so the directory is per process, not workflow input
// (a recovered run finds it in the replacement's settings, and it is not stored state).
let marks;
export function useMarks(dir) {
  marks = dir ? createMarks(dir) : undefined;
}
// The loop scenario's warm-up run is unmarked.
const mark = (runId, kind, index, phase) => {
  if (marks && !runId.startsWith('warmup')) marks.mark(runId, kind, index, phase);
};

/** The model step: given the conversation so far, as a real model call would be. */
async function callModel(runId, messages, settings) {
  const toolResults = messages.filter((m) => m.role === 'tool').length;
  mark(runId, 'model', toolResults, 'start');
  await modelDelay(settings.modelDelayMs);
  const turn = modelTurn({
    toolResults,
    iterations: settings.iterations,
    conversationChars: JSON.stringify(messages).length,
  });
  mark(runId, 'model', toolResults, 'end');
  return turn;
}

/** The tool step; call `slowAt` sleeps `slowToolMs` (the recover scenario kills it there). */
async function callTool(runId, call, settings) {
  const { n } = call.input;
  mark(runId, 'tool', n, 'start');
  if (n === settings.slowAt && settings.slowToolMs > 0) await sleep(settings.slowToolMs);
  const text = observation(n, settings.observationBytes);
  mark(runId, 'tool', n, 'end');
  return text;
}

/**
 * settings: { iterations, modelDelayMs, observationBytes, slowAt?, slowToolMs? }.
 * Returns { answer, maxInputTokens }.
 */
async function agentLoop(settings) {
  const runId = DBOS.workflowID;
  const messages = [
    { role: 'user', content: `Call ${TOOL_NAME} ${settings.iterations} times, then say how many times.` },
  ];
  let maxInputTokens = 0;
  for (;;) {
    const turn = await DBOS.runStep(() => callModel(runId, messages, settings), { name: 'model' });
    maxInputTokens = Math.max(maxInputTokens, turn.inputTokens);
    if (!turn.call) return { answer: turn.answer, maxInputTokens };
    messages.push({ role: 'assistant', content: turn.thought, toolCalls: [turn.call] });
    const result = await DBOS.runStep(() => callTool(runId, turn.call, settings), { name: TOOL_NAME });
    messages.push({ role: 'tool', name: turn.call.name, content: result });
  }
}

export const agentWorkflow = DBOS.registerWorkflow(agentLoop, { name: 'agentLoop' });
