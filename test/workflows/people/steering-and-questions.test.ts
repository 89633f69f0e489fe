import { describe, expect, it } from 'vitest';
import { temporal } from '@temporalio/proto';
import { say, useTool } from '../../../src/activities/models/scripted-model';
import { UpdateRefusedError, sendUpdate } from '../../../src/client/errors/update-refused-error';
import { StatusAttribute, type ModelRequest, type ReasoningStep } from '../../../src/domain';
import { answerUpdate } from '../../../src/workflows/messages';
import { resultStepOfTool } from '../../helpers/chain-helpers';
import {
  ScriptBook,
  gateTool,
  occurrences,
  requestTexts,
  updateEvents,
  waitFor,
  sharedWorker,
} from '../../helpers/people-helpers';
import { scriptedInput } from '../../helpers/scripted-input';

const EventType = temporal.api.enums.v1.EventType;

// One worker for the file; each test has its own task, and so its own script.
const book = new ScriptBook();
const gates = gateTool();
const shared = sharedWorker(() => [gates.tool], book.provider);

const isSteer = (s: ReasoningStep) => s.fromPerson?.kind === 'steer';
const thoughtOf = (s: ReasoningStep) => (s.type === 'thinking' ? s.thought : undefined);
const lastMessage = (request: ModelRequest) => request.messages[request.messages.length - 1]!;

describe('steering', () => {
  it('delivers instructions sent while a tool runs before the next model call, in order; blank ones are dropped', async () => {
    const task = 'steer: hold, then finish';
    const model = book.script(task, [
      { content: [say('Starting the long job.'), useTool('wait_for_gate', { gate: 'steer' })] },
      { content: [useTool('finish', { result: 'done, in metric' })] },
    ]);
    const handle = await shared.h.agents.start(scriptedInput(task));
    const id = handle.workflowId;
    await waitFor('the gated tool to start', () => gates.started('steer'));
    expect((await shared.h.agents.status(id)).steeringQueued).toBeUndefined();

    await shared.h.agents.steer(id, '   ', 'alice');
    await shared.h.agents.steer(id, 'Use metric units.', 'alice');
    await shared.h.agents.steer(id, 'Keep the answer short.');
    await waitFor('two instructions queued', async () => (await shared.h.agents.status(id)).steeringQueued === 2);
    // Nothing is delivered while the tool still runs.
    expect((await shared.h.agents.chain(id)).steps.filter(isSteer)).toEqual([]);
    gates.release('steer');

    const result = await handle.result();
    model.verify();
    expect(result).toMatchObject({ success: true, finalAnswer: 'done, in metric' });

    const steps = result.chain.steps;
    const steering = steps.filter(isSteer);
    expect(steering.map(thoughtOf)).toEqual([
      'Instruction from alice: Use metric units.',
      'Instruction from a person: Keep the answer short.',
    ]);
    expect(steering.map((s) => s.fromPerson)).toEqual([
      { kind: 'steer', by: 'alice' },
      { kind: 'steer', by: 'a person' },
    ]);
    // Placed after the tool's result and before the next model call.
    const toolResultAt = steps.findIndex((s) => s.type === 'tool_result' && s.model === undefined);
    const secondModelCallAt = steps.findIndex(
      (s, i) => i > toolResultAt && s.type === 'tool_call' && s.toolCall.toolType === 'llm',
    );
    const steeringAt = steps.map((s, i) => (isSteer(s) ? i : -1)).filter((i) => i >= 0);
    expect(toolResultAt).toBeGreaterThan(0);
    expect(steeringAt).toEqual([toolResultAt + 1, toolResultAt + 2]);
    expect(secondModelCallAt).toBe(toolResultAt + 3);

    // The next request ends with the instructions, in order, after the tool result.
    const last = lastMessage(model.calls[1]!);
    expect(last.role).toBe('user');
    const texts = last.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('Use metric units.');
    expect(texts[0]).toContain('alice');
    expect(texts[1]).toContain('Keep the answer short.');
    expect(last.content[0]).toMatchObject({ type: 'tool_result', content: 'gate steer opened' });
    expect(requestTexts(model.calls[0]!).join('\n')).not.toContain('metric');
    expect((await shared.h.agents.status(id)).steeringQueued).toBeUndefined();
  });

  it('carries an instruction that arrives before a continue-as-new into the next run, once', async () => {
    const task = 'steer: across continue-as-new';
    const model = book.script(task, [
      { content: [useTool('wait_for_gate', { gate: 'can' })] },
      { content: [useTool('finish', { result: 'plan B done' })] },
    ]);
    const handle = await shared.h.agents.start(scriptedInput(task, { continueAsNewEvery: 1 }));
    const id = handle.workflowId;
    await waitFor('the gated tool to start', () => gates.started('can'));
    const firstRunId = (await handle.describe()).runId;
    await shared.h.agents.steer(id, 'Switch to plan B.', 'carol');
    await waitFor('the instruction queued', async () => (await shared.h.agents.status(id)).steeringQueued === 1);
    gates.release('can');

    const result = await handle.result();
    model.verify();
    expect(result).toMatchObject({ success: true, continuations: 1 });
    const firstRun = await shared.env.client.workflow.getHandle(id, firstRunId).fetchHistory();
    expect(firstRun.events?.at(-1)?.eventType).toBe(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW);
    expect((await handle.describe()).runId).not.toBe(firstRunId);

    const steering = result.chain.steps.filter(isSteer);
    expect(steering.map(thoughtOf)).toEqual(['Instruction from carol: Switch to plan B.']);
    expect(steering[0]!.fromPerson).toEqual({ kind: 'steer', by: 'carol' });
    expect(occurrences(requestTexts(model.calls[1]!).join('\n'), 'Switch to plan B.')).toBe(1);
    expect(occurrences(requestTexts(model.calls[0]!).join('\n'), 'Switch to plan B.')).toBe(0);
  });
});

describe('clarification questions', () => {
  it('round trip: the question is shown, the answer is marked as a person’s and reaches the model', async () => {
    const task = 'question: which city';
    const model = book.script(task, [
      {
        content: [
          say('I need to know the city.'),
          useTool('ask_person', { question: 'Which city do you mean?' }, 'toolu_q_city'),
        ],
      },
      { content: [useTool('finish', { result: 'Weather for Paris' })] },
    ]);
    const handle = await shared.h.agents.start(scriptedInput(task, { allowQuestions: true }));
    const id = handle.workflowId;

    const status = await waitFor('the open question', async () => {
      const s = await shared.h.agents.status(id);
      return s.openQuestion ? s : undefined;
    });
    expect(status.openQuestion).toMatchObject({ callId: 'toolu_q_city', question: 'Which city do you mean?' });
    expect(status.waitingFor).toContain('Which city do you mean?');
    expect(status.status).toBe('waiting');
    await waitFor(
      'ThoughtlineStatus = waiting_input',
      async () => (await handle.describe()).typedSearchAttributes.get(StatusAttribute) === 'waiting_input',
    );

    // Refused answers (blank, another call id) change nothing.
    await expect(shared.h.agents.answer(id, '  ', 'bob')).rejects.toThrow(UpdateRefusedError);
    const otherCall = sendUpdate(() =>
      handle.executeUpdate(answerUpdate, { args: [{ text: 'Rome', by: 'eve', callId: 'toolu_other' }] }),
    );
    await expect(otherCall).rejects.toThrow(/toolu_q_city/);

    await expect(shared.h.agents.answer(id, 'Paris', 'bob')).resolves.toBe('Answer received; the run goes on.');
    const result = await handle.result();
    model.verify();
    expect(result).toMatchObject({ success: true, finalAnswer: 'Weather for Paris' });

    const answered = resultStepOfTool(result.chain.steps, 'ask_person');
    expect(answered).toMatchObject({
      fromPerson: { kind: 'answer', by: 'bob' },
      toolResult: { correlationId: 'toolu_q_city', success: true, result: 'Paris' },
    });
    expect(lastMessage(model.calls[1]!)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: 'toolu_q_city', content: 'Answer from bob: Paris', isError: false }],
    });
    expect(model.calls[0]!.tools.map((t) => t.name)).toContain('ask_person');

    // Only the accepted answer reached history.
    const updates = await updateEvents(shared.env.client, id);
    expect(updates.filter((e) => e.endsWith('_ACCEPTED'))).toHaveLength(1);
    expect(updates.filter((e) => e.endsWith('_COMPLETED'))).toHaveLength(1);
    expect(updates.filter((e) => e.endsWith('_REJECTED'))).toHaveLength(0);
    expect((await shared.h.agents.status(id)).openQuestion).toBeUndefined();
    await waitFor(
      'ThoughtlineStatus = success',
      async () => (await handle.describe()).typedSearchAttributes.get(StatusAttribute) === 'success',
    );
  });

  it('refuses an answer when no question is open, leaving no update events in history', async () => {
    const task = 'question: none open';
    const model = book.script(task, [
      { content: [useTool('wait_for_gate', { gate: 'no-question' })] },
      { content: [useTool('finish', { result: 'ok' })] },
    ]);
    const handle = await shared.h.agents.start(scriptedInput(task, { allowQuestions: true }));
    const id = handle.workflowId;
    await waitFor('the gated tool to start', () => gates.started('no-question'));

    const refused = shared.h.agents.answer(id, 'Paris', 'bob');
    await expect(refused).rejects.toBeInstanceOf(UpdateRefusedError);
    await expect(refused).rejects.toThrow('This run has no open question.');
    gates.release('no-question');

    const result = await handle.result();
    model.verify();
    expect(result.success).toBe(true);
    expect(result.chain.steps.some((s) => s.fromPerson?.kind === 'answer')).toBe(false);
    expect(await updateEvents(shared.env.client, id)).toEqual([]);
  });

  it('tells the model nobody answered when the question times out, and the run goes on', async () => {
    const task = 'question: nobody home';
    const model = book.script(task, [
      { content: [useTool('ask_person', { question: 'Anyone there?' }, 'toolu_q_lonely')] },
      { content: [useTool('finish', { result: 'went on without an answer' })] },
    ]);
    const started = Date.now();
    const handle = await shared.h.agents.start(scriptedInput(task, { allowQuestions: true, questionTimeoutMs: 1_500 }));
    const open = await waitFor(
      'the open question',
      async () => (await shared.h.agents.status(handle.workflowId)).openQuestion,
    );
    expect(Date.parse(open.expiresAt) - Date.parse(open.askedAt)).toBe(1_500);

    const result = await handle.result();
    model.verify();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(result).toMatchObject({ success: true, finalAnswer: 'went on without an answer' });
    const unanswered = resultStepOfTool(result.chain.steps, 'ask_person');
    expect(unanswered?.toolResult).toMatchObject({ correlationId: 'toolu_q_lonely', success: false, result: null });
    expect(unanswered?.toolResult.error).toMatch(/^Nobody answered/);
    expect(unanswered?.fromPerson).toBeUndefined();
    const observation = lastMessage(model.calls[1]!).content[0];
    expect(observation).toMatchObject({ type: 'tool_result', toolUseId: 'toolu_q_lonely', isError: true });
    expect(observation?.type === 'tool_result' && observation.content).toMatch(/^Nobody answered/);
    // The wait is said truthfully: a 1.5 s timeout is not "0 minutes".
    expect(unanswered?.toolResult.error).not.toMatch(/within 0 \w+/);
  });

  it('does not offer ask_person unless allowQuestions, and a call to it is an unknown-tool error', async () => {
    const task = 'question: not offered';
    const model = book.script(task, [
      { content: [useTool('ask_person', { question: 'May I?' }, 'toolu_q_unoffered')] },
      { content: [useTool('finish', { result: 'carried on' })] },
    ]);
    const handle = await shared.h.agents.start(scriptedInput(task));
    const result = await handle.result();
    model.verify();
    expect(model.calls[0]!.tools.map((t) => t.name)).toEqual(['wait_for_gate', 'finish', 'give_up']);
    expect(result.success).toBe(true);
    expect(result.chain.steps.some((s) => s.fromPerson?.kind === 'answer')).toBe(false);
    const observation = lastMessage(model.calls[1]!).content[0];
    expect(observation).toMatchObject({ type: 'tool_result', toolUseId: 'toolu_q_unoffered', isError: true });
    expect(observation?.type === 'tool_result' && observation.content).toContain('ask_person');
  });
});
