import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import {
  FailureType,
  type AgentResult,
  type AssistantBlock,
  type ContextSummarySettings,
  type ModelRequest,
  type ReasoningStep,
} from '../../../src/domain';
import { contextSummarySystem } from '../../../src/domain/model/context-summary';
import { defineTool } from '../../../src/tools/define-tool';
import { scriptedInput } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const READS = 8;
const CONTEXT_CHARS = 4_000;
const SUMMARY = 'Rooms 1 to 4 have codes 717, 727, 737 and 747; rooms 5 to 8 are still to read.';

const readRoom = defineTool({
  name: 'read_room',
  description: 'Reads the notes on room n',
  input: z.object({ n: z.number().int() }),
  effects: 'none',
  execute: ({ n }) => `Room ${n}: the code is 7${n}7. ${'Notes about the room. '.repeat(12)}`,
});

/** The same rooms, read through a tool whose results only the auditor may see. */
const readSealedRoom = defineTool({
  name: 'read_room',
  description: 'Reads the notes on room n',
  input: z.object({ n: z.number().int() }),
  effects: 'none',
  visibility: 'hidden',
  execute: ({ n }) => `Room ${n}: the code is 7${n}7. ${'Notes about the room. '.repeat(12)}`,
});

const isSummaryCall = (request: ModelRequest): boolean => request.system === contextSummarySystem();

/**
 * READS reading turns and a finish, each turn with a long thought so whole turns must go; any
 * summary call, whenever it comes, gets `summary` (a function of the request, so the script does
 * not need to know when compaction happens). `summaries` is how many summary calls the run makes.
 */
function script(summaries: number, summary: (request: ModelRequest) => AssistantBlock[]): ScriptedTurn[] {
  let move = 0;
  const next = (request: ModelRequest) => {
    if (isSummaryCall(request)) return summary(request);
    move += 1;
    const thought = say(`Reading room ${move} next, because every room's code is needed. ${'Thinking. '.repeat(25)}`);
    return move <= READS
      ? [thought, useTool('read_room', { n: move })]
      : [useTool('finish', { result: 'All codes read.' })];
  };
  return Array.from({ length: READS + 1 + summaries }, () => ({ content: next }));
}

/** A run that reads every room through `tool` with `model`, its context held to CONTEXT_CHARS. */
async function collectRooms(
  tool: typeof readRoom,
  model: ReturnType<typeof createScriptedModel>,
  contextSummary: ContextSummarySettings | Record<string, never>,
): Promise<AgentResult> {
  const h = await createHarness(env, { tools: [tool], models: { scripted: model } });
  return h.worker.runUntil(async () => {
    const handle = await h.agents.start(
      scriptedInput('Collect the code of every room', {
        maxIterations: READS + 3,
        maxContextChars: CONTEXT_CHARS,
        contextSummary,
      }),
    );
    return handle.result();
  });
}

const compactionNotes = (steps: readonly ReasoningStep[]) =>
  steps.filter((s) => s.type === 'thinking' && s.purpose === 'compaction');
const compactionCalls = (steps: readonly ReasoningStep[]) =>
  steps.filter(
    (s) => s.type === 'tool_call' && s.toolCall.toolType === 'llm' && s.toolCall.arguments['purpose'] === 'compaction',
  );
const taskText = (request: ModelRequest): string =>
  request.messages[0]?.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n') ?? '';

describe('a model-written summary of the turns compaction drops (contextSummary)', () => {
  it('summarises dropped turns in one visible model call per compaction and sends the summary to the next turn', async () => {
    let written = 0;
    const model = createScriptedModel(script(2, () => [say(`${SUMMARY} (summary ${++written})`)]));
    const result = await collectRooms(readRoom, model, { maxChars: 600 });
    model.verify();
    expect(result).toMatchObject({ success: true, iterations: READS + 1, modelCalls: READS + 3 });
    const steps = result.chain.steps;

    // Two compactions in nine iterations (each drops down to half the limit), one summary call each,
    // recorded as an llm step pair with its tokens.
    const calls = compactionCalls(steps);
    expect(calls).toHaveLength(2);
    const ids = new Set(calls.map((c) => (c.type === 'tool_call' ? c.toolCall.correlationId : '')));
    const replies = steps.filter((s) => s.type === 'tool_result' && ids.has(s.toolResult.correlationId));
    expect(replies).toHaveLength(2);
    for (const reply of replies)
      expect(reply).toMatchObject({ toolResult: { success: true }, usage: { inputTokens: 100, outputTokens: 20 } });
    const notes = compactionNotes(steps);
    expect(notes.map((n) => (n.type === 'thinking' ? n.thought : ''))).toEqual([
      expect.stringContaining(`${SUMMARY} (summary 1)`),
      expect.stringContaining(`${SUMMARY} (summary 2)`),
    ]);

    // Each summary call read the dropped turns (the second also the first summary); the next turn carries the summary, not a note.
    const at = model.calls.flatMap((c, i) => (isSummaryCall(c) ? [i] : []));
    expect(at).toHaveLength(2);
    const [first, second] = at.map((i) => model.calls[i]);
    expect(first && taskText(first)).toContain('Room 1: the code is 717');
    expect(second && taskText(second)).toContain(`${SUMMARY} (summary 1)`);
    for (const [n, i] of at.entries()) {
      const next = model.calls[i + 1];
      expect(next && isSummaryCall(next)).toBe(false);
      expect(next && taskText(next)).toContain(`${SUMMARY} (summary ${n + 1})`);
      expect(next && taskText(next)).not.toContain('[Context note:');
      expect(JSON.stringify(next?.messages)).not.toContain('Room 1: the code is 717');
    }
    // The chain keeps every turn; the model never saw more than the limit.
    const results = steps.filter((s) => s.type === 'tool_result' && s.model === undefined && s.toolResult.success);
    expect(results).toHaveLength(READS + 1);
    for (const request of model.calls)
      expect(JSON.stringify(request.messages).length).toBeLessThanOrEqual(CONTEXT_CHARS);
  });

  it("shows a summary no wider than the results it restates: a hidden tool's summary is hidden too", async () => {
    const model = createScriptedModel(script(2, () => [say(SUMMARY)]));
    const result = await collectRooms(readSealedRoom, model, {});
    model.verify();
    const notes = compactionNotes(result.chain.steps);
    expect(notes).toHaveLength(2);
    for (const note of notes)
      expect(note).toMatchObject({ thought: expect.stringContaining(SUMMARY), visibility: { level: 'hidden' } });
  });

  it('falls back to the note when the summary call fails, says so, and the run goes on', async () => {
    const model = createScriptedModel(
      script(2, () => {
        throw ApplicationFailure.create({
          type: FailureType.ModelServerError,
          message: 'summariser down',
          nonRetryable: true,
        });
      }),
    );
    const result = await collectRooms(readRoom, model, {});
    model.verify();
    expect(result).toMatchObject({ success: true, iterations: READS + 1 });
    const notes = compactionNotes(result.chain.steps);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatchObject({
      thought: expect.stringMatching(/^Context compacted without a summary \(Model call failed: .*summariser down/),
    });
    const next = model.calls[model.calls.findIndex(isSummaryCall) + 1];
    expect(next && taskText(next)).toContain('[Context note:');
  });
});
