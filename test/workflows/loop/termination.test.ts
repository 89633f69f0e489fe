import { WorkflowUpdateFailedError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import { totalTokens, type AgentResult, type ModelRequest } from '../../../src/domain';
import { estimateInputTokens, MIN_OUTPUT_TOKENS } from '../../../src/workflows/model/budget';
import { resolveStallUpdate, statusQuery } from '../../../src/workflows/messages';
import { holdAfter } from '../../helpers/approval-helpers';
import { callStep, llmCalls, openCallSteps, stepShape, thoughts, toolResultOf } from '../../helpers/chain-helpers';
import { scheduledActivities } from '../../helpers/history';
import { runScripted } from '../../helpers/run-scripted';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { slowTool, testTools } from '../../helpers/test-tools';

const EventType = temporal.api.enums.v1.EventType;

const env = useTestEnv();

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The task of the runs made with runScripted. */
const task = 'Find the values.';

/** The last step must be the synthesis, with the final answer as its conclusion. */
function expectSynthesisLast(result: AgentResult): void {
  const last = result.chain.steps.at(-1);
  expect(last?.type).toBe('synthesis');
  if (last?.type === 'synthesis') expect(last.synthesis.conclusion).toBe(result.finalAnswer);
}

// ---- request helpers ----

const lastMessageJson = (request: ModelRequest | undefined) => JSON.stringify(request?.messages.at(-1));
/**
 * tool_use ids in `request` without a tool_result in the very next user message. The Anthropic
 * Messages API (and OpenAI's tool protocol) reject a conversation that has any.
 */
function unansweredToolUses(request: ModelRequest): string[] {
  const missing: string[] = [];
  request.messages.forEach((message, i) => {
    if (message.role !== 'assistant') return;
    const next = request.messages[i + 1];
    const answered = new Set(
      next?.role === 'user' ? next.content.flatMap((b) => (b.type === 'tool_result' ? [b.toolUseId] : [])) : [],
    );
    for (const block of message.content)
      if (block.type === 'tool_use' && !answered.has(block.id)) missing.push(block.id);
  });
  return missing;
}

describe('termination reasons (real dev server)', () => {
  it('success: a success phrase ends the run; a tool call in the same reply is not run', async () => {
    const text = 'alpha is 50, so the task complete.'; // phrases match case-insensitively
    const { result, model, log } = await runScripted(env, {
      script: [{ content: [say(text), useTool('lookup', { key: 'alpha' }, 'toolu_p1')] }],
      input: { task, successPhrases: ['TASK COMPLETE'] },
    });

    expect(result).toMatchObject({
      success: true,
      terminationReason: 'success',
      finalAnswer: text,
      modelCalls: 1,
      toolCalls: 0,
      iterations: 1,
    });
    expect(model.calls).toHaveLength(1);
    expect(log.calls).toEqual([]);
    expect((await scheduledActivities(env.client, result.chain.chainId)).filter((a) => a.type === 'runTool')).toEqual(
      [],
    );

    expect(stepShape(result.chain.steps)).toEqual([
      'call:llm:scripted-model',
      'result:true',
      'thinking',
      'call:custom:lookup',
      'result:false',
      'synthesis',
    ]);
    expect(thoughts(result.chain.steps)).toEqual([text]);
    expect(toolResultOf(result.chain.steps, 'toolu_p1')).toMatchObject({
      success: false,
      error: 'Not run: the reply contained the success phrase "TASK COMPLETE".',
    });
    expectSynthesisLast(result);
    expect(result.chain.status).toBe('completed');
  });

  it('failure: a failure phrase ends the run, and wins over a success phrase in the same reply', async () => {
    const text = 'Task complete? No: I CANNOT PROCEED, the value of bb is withheld.';
    const { result, log } = await runScripted(env, {
      script: [
        { content: [say('Looking up a.'), useTool('lookup', { key: 'a' }, 'toolu_f1')] },
        { content: [say(text), useTool('lookup', { key: 'bb' }, 'toolu_f2')] },
      ],
      input: { task, successPhrases: ['task complete'], failurePhrases: ['cannot proceed'] },
    });

    expect(result).toMatchObject({
      success: false,
      terminationReason: 'failure',
      finalAnswer: text,
      modelCalls: 2,
      toolCalls: 1,
      iterations: 2,
    });
    expect(log.calls.map((c) => c.args)).toEqual([{ key: 'a' }]);
    expect(toolResultOf(result.chain.steps, 'toolu_f1')).toMatchObject({
      success: true,
      result: { key: 'a', value: 10 },
    });
    expect(toolResultOf(result.chain.steps, 'toolu_f2')).toMatchObject({
      success: false,
      error: 'Not run: the reply contained the failure phrase "cannot proceed".',
    });
    expect(thoughts(result.chain.steps)).toEqual(['Looking up a.', text]);
    expectSynthesisLast(result);
    // The synthesis draws on the one real observation.
    const last = result.chain.steps.at(-1);
    const observed = result.chain.steps.find(
      (s) => s.type === 'tool_result' && s.toolResult.correlationId === 'toolu_f1',
    );
    expect(last?.type === 'synthesis' && last.synthesis.sources).toEqual([observed?.stepId]);
  });

  it('failure: the model declares the task impossible with give_up; other calls of that turn are not run', async () => {
    const reason = 'The database needs credentials I do not have.';
    const { result, model, log } = await runScripted(env, {
      script: [
        {
          content: [
            say('I lack access.'),
            useTool('lookup', { key: 'secret' }, 'toolu_g1'),
            useTool('give_up', { reason: `  ${reason}  ` }, 'toolu_g2'),
          ],
        },
      ],
      input: { task },
    });

    // The model was offered the give-up tool beside the finish tool.
    expect(model.calls[0]?.tools.map((t) => t.name)).toEqual([
      'lookup',
      'always_fails',
      'big_result',
      'finish',
      'give_up',
    ]);
    expect(result).toMatchObject({
      success: false,
      terminationReason: 'failure',
      finalAnswer: reason,
      modelCalls: 1,
      toolCalls: 0,
    });
    expect(log.calls).toEqual([]);
    expect(stepShape(result.chain.steps)).toEqual([
      'call:llm:scripted-model',
      'result:true',
      'thinking',
      'call:custom:give_up',
      'result:true',
      'call:custom:lookup',
      'result:false',
      'synthesis',
    ]);
    expect(thoughts(result.chain.steps)).toEqual(['I lack access.']);
    expect(toolResultOf(result.chain.steps, 'toolu_g2')).toMatchObject({ success: true, result: reason });
    expect(toolResultOf(result.chain.steps, 'toolu_g1')).toMatchObject({
      success: false,
      error: 'Not run: "give_up" was called in the same turn.',
    });
    const last = result.chain.steps.at(-1);
    expect(last?.type === 'synthesis' && last.synthesis.conclusion).toBe(`The task could not be completed: ${reason}`);
  });

  describe('stalled', () => {
    it('stops after the same call is repeated: the third repeat is answered with a warning, the fourth stalls, then a summary', async () => {
      const summary = 'Summary: alpha is 50. I kept asking for it again; nothing else was done.';
      const repeat = (id: string): ScriptedTurn => ({ content: [useTool('lookup', { key: 'alpha' }, id)] });
      const { result, model, log } = await runScripted(env, {
        script: [
          { content: [say('Looking up alpha.'), useTool('lookup', { key: 'alpha' }, 'toolu_r1')] },
          repeat('toolu_r2'),
          repeat('toolu_r3'),
          repeat('toolu_r4'),
          { content: [say(summary)] },
        ],
        input: { task, stallThreshold: 3, onStall: 'stop' },
      });

      expect(result).toMatchObject({
        success: false,
        terminationReason: 'stalled',
        finalAnswer: summary,
        modelCalls: 5,
        toolCalls: 2,
        iterations: 4,
      });
      // Only the first two calls ran.
      expect(log.calls).toHaveLength(2);
      expect(toolResultOf(result.chain.steps, 'toolu_r1')).toMatchObject({ success: true });
      expect(toolResultOf(result.chain.steps, 'toolu_r2')).toMatchObject({ success: true });

      // The third was not run; the model read a warning in its place, once.
      const warning = 'Not run: you have made this exact call (lookup with the same arguments) 3 times in a row';
      expect(toolResultOf(result.chain.steps, 'toolu_r3')).toMatchObject({
        success: false,
        error: expect.stringContaining(warning),
      });
      const toR3 = model.calls[3]?.messages.at(-1);
      expect(toR3).toEqual({
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'toolu_r3', content: expect.stringContaining(warning), isError: true },
        ],
      });
      expect(
        model.calls.filter((c) => lastMessageJson(c).includes('Not run: you have made this exact call')),
      ).toHaveLength(1);
      expect(lastMessageJson(model.calls[2])).not.toContain('Not run');

      // The fourth stalled the run: never run (recorded as such), a "Stalled:" step, then one tool-less summary call.
      expect(callStep(result.chain.steps, 'toolu_r4')?.toolCall).toMatchObject({
        toolName: 'lookup',
        toolType: 'custom',
      });
      expect(toolResultOf(result.chain.steps, 'toolu_r4')).toMatchObject({
        success: false,
        error: 'Not run: the run stopped because it was stalled.',
      });
      expect(thoughts(result.chain.steps)).toContain(
        'Stalled: it called lookup with the same arguments 4 times in a row, after being told once.',
      );
      const summaryCall = model.calls[4]!;
      expect(summaryCall.toolChoice).toBe('none');
      expect(lastMessageJson(summaryCall)).toContain('You kept repeating the same tool calls without progress.');
      expect(llmCalls(result.chain.steps)).toHaveLength(5);
      expectSynthesisLast(result);

      // The summary request must be a valid conversation: every tool_use answered by a tool_result
      // (the stalled call's included), or a real provider rejects it and the summary is lost.
      expect(unansweredToolUses(summaryCall)).toEqual([]);
    });

    it('stops after repeated unreadable replies (react-text): a warning on the third, stalled on the fourth', async () => {
      const bad: ScriptedTurn = { content: [say('Thought: I should look it up.\nAction: lookup')] };
      const summary = 'Summary: nothing was looked up; my replies did not follow the format.';
      const { result, model, log } = await runScripted(env, {
        script: [bad, bad, bad, bad, { content: [say(summary)] }],
        input: { task, strategy: 'react-text', stallThreshold: 3 },
      });

      expect(result).toMatchObject({
        success: false,
        terminationReason: 'stalled',
        finalAnswer: summary,
        modelCalls: 5,
        toolCalls: 0,
        formatErrors: 4,
      });
      expect(log.calls).toEqual([]);
      const warning = 'This is unreadable reply number 3 in a row; follow the format exactly or the run will stop.';
      expect(model.calls.map((c) => lastMessageJson(c).includes(warning))).toEqual([false, false, false, true, false]);
      expect(lastMessageJson(model.calls[1])).toContain("Invalid Format: Missing 'Action Input:' after 'Action:'");
      const notUnderstood = thoughts(result.chain.steps).filter((t) => t.startsWith('Reply not understood'));
      expect(notUnderstood).toHaveLength(3);
      expect(notUnderstood[2]).toContain(warning);
      expect(thoughts(result.chain.steps)).toContain(
        'Stalled: 4 replies in a row could not be read, after being told once.',
      );
      expect(model.calls[4]?.toolChoice).toBe('none');
      expect(lastMessageJson(model.calls[4])).toContain('Your replies could not be read, several times in a row.');
      expectSynthesisLast(result);
    });

    it("with onStall 'ask' waits for resolveStall, goes on when a person says continue, and refuses an update nobody asked for", async () => {
      const script = createScriptedModel([
        { content: [say('Looking up alpha.'), useTool('lookup', { key: 'alpha' }, 'toolu_a1')] },
        { content: [useTool('lookup', { key: 'alpha' }, 'toolu_a2')] },
        { content: [useTool('lookup', { key: 'alpha' }, 'toolu_a3')] },
        { content: [useTool('lookup', { key: 'alpha' }, 'toolu_a4')] },
        { content: [say('Got it.'), useTool('finish', { result: 'alpha is 50' }, 'toolu_a5')] },
      ]);
      // The first model call waits for the test, so the early update meets a run with nothing pending.
      const firstCall = holdAfter(script, 0);
      const model = firstCall.model;
      const { tools, log } = testTools();
      const h = await createHarness(env, { tools, models: { scripted: model } });

      const { result, early, waiting, answer, after, history } = await h.worker.runUntil(async () => {
        const handle = await h.agents.start({
          task: 'Find alpha.',
          model: SCRIPTED_MODEL,
          stallThreshold: 3,
          onStall: 'ask',
        });
        while (firstCall.held() === 0) await wait(20);
        const early = await handle
          .executeUpdate(resolveStallUpdate, { args: [{ continue: true, by: 'mallory' }], updateId: 'too-early' })
          .then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          );
        firstCall.release();

        let waiting = await handle.query(statusQuery);
        for (const deadline = Date.now() + 20_000; waiting.waitingFor === undefined && Date.now() < deadline;) {
          await wait(100);
          waiting = await handle.query(statusQuery);
        }
        const answer = await handle.executeUpdate(resolveStallUpdate, {
          args: [{ continue: true, by: 'alice', note: 'try once more' }],
          updateId: 'continue-1',
        });
        const result = await handle.result();
        const after = await handle.query(statusQuery);
        return { result, early, waiting, answer, after, history: await handle.fetchHistory() };
      });
      script.verify();

      // Nothing was pending: the update was rejected by its validator.
      expect('error' in early && early.error).toBeInstanceOf(WorkflowUpdateFailedError);
      expect('error' in early && early.error instanceof WorkflowUpdateFailedError && early.error.cause?.message).toBe(
        'This run is not waiting for a "continue?" decision.',
      );

      // While stalled, the status says what the run waits for.
      expect(waiting).toMatchObject({
        status: 'waiting',
        waitingFor:
          'a decision on the stall: The agent seems stuck: it called lookup with the same arguments 4 times in a row. Continue?',
      });
      expect(answer).toBe('The run will continue.');
      expect(after.waitingFor).toBeUndefined();

      // Continued: the stalled call ran, and the model finished.
      expect(result).toMatchObject({
        success: true,
        terminationReason: 'success',
        finalAnswer: 'alpha is 50',
        modelCalls: 5,
        toolCalls: 3,
      });
      expect(log.calls).toHaveLength(3);
      expect(toolResultOf(result.chain.steps, 'toolu_a3')).toMatchObject({
        success: false,
        error: expect.stringContaining('Not run: you have made this exact call'),
      });
      expect(toolResultOf(result.chain.steps, 'toolu_a4')).toMatchObject({
        success: true,
        result: { key: 'alpha', value: 50 },
      });
      const said = thoughts(result.chain.steps);
      const stalledAt = said.indexOf(
        'Stalled: it called lookup with the same arguments 4 times in a row, after being told once.',
      );
      expect(stalledAt).toBeGreaterThanOrEqual(0);
      expect(said[stalledAt + 1]).toBe('A person (alice) chose to continue: try once more.');
      expectSynthesisLast(result);

      // Only the accepted update is in the history; the rejected one left no trace.
      const events = history.events ?? [];
      const accepted = events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED);
      expect(
        accepted.map((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.meta?.updateId),
      ).toEqual(['continue-1']);
      const completed = events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED);
      expect(completed.map((e) => e.workflowExecutionUpdateCompletedEventAttributes?.meta?.updateId)).toEqual([
        'continue-1',
      ]);
    });
  });

  /**
   * The budget tests need the exact projection of the third model call. A run without a budget
   * plays the same script first; its third request is what the budgeted run would send.
   */
  const budgetScript = (costs: [number, number] = [0, 0]): ScriptedTurn[] => [
    {
      content: [say('Looking up a.'), useTool('lookup', { key: 'a' }, 'toolu_b1')],
      usage: { inputTokens: 1000, outputTokens: 50 },
      costUsd: costs[0],
    },
    {
      content: [useTool('lookup', { key: 'bb' }, 'toolu_b2')],
      usage: { inputTokens: 1500, outputTokens: 60 },
      costUsd: costs[1],
    },
    {
      content: [useTool('finish', { result: 'a=10, bb=20' }, 'toolu_b3')],
      usage: { inputTokens: 1600, outputTokens: 40 },
    },
  ];
  async function projections(): Promise<{ second: number; third: number; requests: readonly ModelRequest[] }> {
    const dry = await runScripted(env, { script: budgetScript(), input: { task } });
    expect(dry.result.terminationReason).toBe('success');
    const [, second, third] = dry.model.calls;
    return { second: estimateInputTokens(second!), third: estimateInputTokens(third!), requests: dry.model.calls };
  }

  it('token_budget: stops before the call that would cross, without a summary call', async () => {
    const projected = await projections();
    const spentAfterTwo = 1000 + 50 + 1500 + 60;
    const fits = spentAfterTwo + projected.third + MIN_OUTPUT_TOKENS;

    // One token short of room for the third call: the run ends before making it.
    const budget = fits - 1;
    const { result, model } = await runScripted(env, {
      script: budgetScript().slice(0, 2),
      input: { task, tokenBudget: budget },
    });
    expect(model.calls.map((c) => c.messages)).toEqual(projected.requests.slice(0, 2).map((c) => c.messages));
    expect(result).toMatchObject({ success: false, terminationReason: 'token_budget', modelCalls: 2, toolCalls: 2 });
    expect(totalTokens(result.usage)).toBe(spentAfterTwo);
    expect(totalTokens(result.usage)).toBeLessThanOrEqual(budget);
    // The second call's max_tokens was lowered to what the budget left after its input.
    expect(model.calls[1]?.maxTokens).toBe(budget - 1050 - projected.second);
    expect(model.calls[1]?.maxTokens).toBeLessThan(2048);
    // No summary call: the answer is written without a model, and says why.
    expect(llmCalls(result.chain.steps)).toHaveLength(2);
    expect(result.finalAnswer).toContain(
      `Token budget: ${spentAfterTwo} of ${budget} tokens spent; the next call needs about ${projected.third} input tokens`,
    );
    expect(result.finalAnswer).toContain('- {"key":"a","value":10}');
    expect(result.finalAnswer).toContain('- {"key":"bb","value":20}');
    expectSynthesisLast(result);
    expect(openCallSteps(result.chain.steps)).toEqual([]);

    // With exactly enough room the third call is made, with max_tokens cut to the minimum.
    const enough = await runScripted(env, { script: budgetScript(), input: { task, tokenBudget: fits } });
    expect(enough.result).toMatchObject({ success: true, terminationReason: 'success', modelCalls: 3 });
    expect(enough.model.calls[2]?.maxTokens).toBe(MIN_OUTPUT_TOKENS);
  });

  it('cost_budget: stops before the call that would cross, using the model price for the projection', async () => {
    const projected = await projections();
    const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    // Input is priced at the dearer of input and cache write; output at $15 per million.
    const thirdInputUsd = (projected.third * 3.75) / 1e6;
    const budgetFor = (outputTokens: number) => 0.03 + thirdInputUsd + (outputTokens * 15) / 1e6;

    const budget = budgetFor(MIN_OUTPUT_TOKENS - 0.5);
    const { result, model } = await runScripted(env, {
      script: budgetScript([0.01, 0.02]).slice(0, 2),
      input: { task, costBudgetUsd: budget, model: { ...SCRIPTED_MODEL, price } },
    });
    expect(result).toMatchObject({
      success: false,
      terminationReason: 'cost_budget',
      modelCalls: 2,
      toolCalls: 2,
      costUsd: 0.03,
    });
    expect(result.costUsd).toBeLessThanOrEqual(budget);
    expect(model.calls).toHaveLength(2);
    expect(llmCalls(result.chain.steps)).toHaveLength(2);
    expect(result.finalAnswer).toContain(
      `Cost budget: $0.030000 of $${budget} spent; the next call would cost about $`,
    );
    expectSynthesisLast(result);
    const last = result.chain.steps.at(-1);
    expect(last?.type === 'synthesis' && last.synthesis.conclusion).toContain('Cost budget');

    // Half a token's worth more: the third call is affordable, with max_tokens cut to the minimum.
    const enough = await runScripted(env, {
      script: budgetScript([0.01, 0.02]),
      input: { task, costBudgetUsd: budgetFor(MIN_OUTPUT_TOKENS + 0.5), model: { ...SCRIPTED_MODEL, price } },
    });
    expect(enough.result).toMatchObject({ success: true, terminationReason: 'success', modelCalls: 3 });
    expect(enough.model.calls[2]?.maxTokens).toBe(MIN_OUTPUT_TOKENS);
  });

  it('timeout: a run past runTimeoutMs returns (does not fail) with the slow call marked as interrupted', async () => {
    const events: string[] = [];
    const slow = slowTool(events);
    const model = createScriptedModel([{ content: [say('Starting the job.'), useTool('slow_job', {}, 'toolu_t1')] }]);
    const h = await createHarness(env, { tools: [slow], models: { scripted: model } });
    const started = Date.now();
    const { result, status } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ task: 'Do the long job.', model: SCRIPTED_MODEL, runTimeoutMs: 1_500 });
      const result = await handle.result();
      return { result, status: (await handle.describe()).status.name };
    });
    const ms = Date.now() - started;
    model.verify();

    expect(status).toBe('COMPLETED');
    expect(ms).toBeLessThan(6_000);
    expect(result).toMatchObject({ success: false, terminationReason: 'timeout', modelCalls: 1, toolCalls: 1 });
    expect(result.finalAnswer).toContain('The run reached its time limit of 1500 ms.');
    expect(events[0]).toBe('started');
    expect(events).not.toContain('finished');
    const slowResult = toolResultOf(result.chain.steps, 'toolu_t1');
    expect(slowResult).toMatchObject({ success: false });
    expect(['cancelled', 'unknown']).toContain(slowResult?.outcome);
    expect(openCallSteps(result.chain.steps)).toEqual([]);
    expect(llmCalls(result.chain.steps)).toHaveLength(1);
    expectSynthesisLast(result);
  });
});
