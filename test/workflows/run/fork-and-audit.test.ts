import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelProvider } from '../../../src/activities';
import { createScriptedModel, useTool } from '../../../src/activities/models/scripted-model';
import { sealAll, auditReport } from '../../../src/audit';
import { verifyReport, allProblems } from '../../../src/audit/verify-report';
import { ForkError } from '../../../src/client/fork/fork-error';
import { chainAsOf } from '../../../src/client/fork/chain-as-of';
import { CallerAttribute, ForkedFromAttribute, type AgentResult, type ReasoningStep } from '../../../src/domain';
import { defineTool } from '../../../src/tools/define-tool';
import { scriptedInput } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

/** Two scripted models behind the one `scripted` provider, chosen by the model the run names. */
function byModel(models: Record<string, ModelProvider>): ModelProvider {
  return {
    name: 'scripted',
    complete: (request, signal, hooks) => models[request.model]!.complete(request, signal, hooks),
  };
}

const written: string[] = [];
const readNotes = defineTool({
  name: 'read_notes',
  description: 'Reads the notes on a topic',
  input: z.object({ topic: z.string() }),
  effects: 'none',
  execute: ({ topic }) => `notes on ${topic}: 42`,
});
const writeFile = defineTool({
  name: 'write_file',
  description: 'Writes a file',
  input: z.object({ path: z.string(), text: z.string() }),
  execute: ({ path, text }) => (written.push(path), `wrote ${text.length} chars to ${path}`),
});

describe('fork, time travel and a sealed audit export of a finished run', () => {
  it(
    'forks at step 4 with another model: the same first steps and conversation, linked both ways, the write call listed as a hazard; the export verifies and an edit is caught',
    { timeout: 90_000 },
    async () => {
      const original = createScriptedModel([
        {
          content: [useTool('read_notes', { topic: 'revenue' })],
          usage: { inputTokens: 100, outputTokens: 10 },
          costUsd: 0.001,
        },
        {
          content: [useTool('write_file', { path: 'report.txt', text: 'revenue is 42' })],
          usage: { inputTokens: 200, outputTokens: 20 },
          costUsd: 0.002,
        },
        {
          content: [useTool('finish', { result: 'Wrote the report.' })],
          usage: { inputTokens: 300, outputTokens: 30 },
          costUsd: 0.003,
        },
      ]);
      const other = createScriptedModel([
        {
          content: [useTool('finish', { result: 'Revenue is 42; no file needed.' })],
          usage: { inputTokens: 7, outputTokens: 3 },
          costUsd: 0.0005,
        },
      ]);
      const h = await createHarness(env, {
        tools: [readNotes, writeFile],
        models: { scripted: byModel({ 'scripted-model': original, 'other-model': other }) },
      });
      const caller = { id: 'alice', roles: ['analyst'], tenant: undefined };
      const { first, fork, forks, historyBefore, historyAfter, report } = await h.worker.runUntil(async () => {
        const handle = await h.agents.start(
          scriptedInput('Report the revenue', { caller: { id: caller.id, roles: caller.roles } }),
        );
        const first: AgentResult = await handle.result();
        const historyBefore = (await handle.fetchHistory()).events?.length;
        await expect(h.agents.planFork(handle.workflowId, { atStep: 99 })).rejects.toBeInstanceOf(ForkError);
        const { handle: forked, planned } = await h.agents.fork(handle.workflowId, {
          atStep: 4,
          model: { model: 'other-model' },
          caller: { id: 'bob', roles: ['developer'] },
        });
        const fork: AgentResult = await forked.result();
        // The fork's link is a search attribute: visibility catches up within moments.
        let forks: Awaited<ReturnType<typeof h.agents.forks>> = [];
        for (let i = 0; i < 50 && forks.length === 0; i++)
          forks = await h.agents.forks(handle.workflowId).then((f) => (f.length ? f : sleep(100).then(() => [])));
        const report = await auditReport(h.agents, handle.workflowId, 'auditor');
        const forkReport = await auditReport(h.agents, forked.workflowId, 'developer');
        expect(forkReport.run).toMatchObject({
          caller: { id: 'bob', roles: ['developer'] },
          forkedFrom: { workflowId: handle.workflowId, atStep: 4 },
        });
        const described = await handle.describe();
        expect(described.typedSearchAttributes.get(CallerAttribute)).toBe('alice');
        expect((await forked.describe()).typedSearchAttributes.get(ForkedFromAttribute)).toBe(handle.workflowId);
        return {
          first,
          fork: { result: fork, planned, workflowId: forked.workflowId },
          forks,
          historyBefore,
          historyAfter: (await handle.fetchHistory()).events?.length,
          report,
        };
      });
      original.verify();
      other.verify();

      // The original: read (1–4), write (5–8), finish (9–…); forking never touched it.
      const steps = first.chain.steps;
      expect(steps.slice(0, 8).map((s) => `${s.type}:${s.type === 'tool_call' ? s.toolCall.toolName : ''}`)).toEqual([
        'tool_call:scripted-model',
        'tool_result:',
        'tool_call:read_notes',
        'tool_result:',
        'tool_call:scripted-model',
        'tool_result:',
        'tool_call:write_file',
        'tool_result:',
      ]);
      expect(historyAfter).toBe(historyBefore);
      expect(written).toEqual(['report.txt']);

      // The fork: the original's first four steps unchanged, then its own note and the other model's answer.
      const forkSteps = fork.result.chain.steps;
      expect(forkSteps.slice(0, 4)).toEqual(steps.slice(0, 4));
      expect(fork.result.chain.forkedFrom).toEqual({ workflowId: first.chain.chainId, atStep: 4, keptThroughStep: 4 });
      expect(first.chain.caller).toEqual({ id: 'alice', roles: ['analyst'] });
      expect(fork.result.chain.caller).toEqual({ id: 'bob', roles: ['developer'] });
      const note = forkSteps[4] as Extract<ReasoningStep, { type: 'thinking' }>;
      expect(note.type).toBe('thinking');
      expect(note.thought).toContain(`Forked from run ${first.chain.chainId} at step 4`);
      expect(note.thought).toContain('write_file (step 7, approval: never)');
      expect(fork.result.finalAnswer).toBe('Revenue is 42; no file needed.');
      expect(fork.planned.start.hazards).toEqual([
        {
          stepNumber: 7,
          toolName: 'write_file',
          toolType: 'external',
          approval: 'never',
          because: 'not declared read-only',
        },
      ]);
      // The conversation the other model got is the one the original's second call was sent.
      expect(other.calls[0]!.messages).toEqual(original.calls[1]!.messages);
      expect(other.calls[0]!.model).toBe('other-model');
      // The ledger carries the first call's spend, then adds the fork's own.
      expect(fork.result.usage).toMatchObject({ inputTokens: 107, outputTokens: 13 });
      expect(fork.result.costUsd).toBeCloseTo(0.0015, 9);
      expect(forks.map((f) => f.workflowId)).toEqual([fork.workflowId]);

      // Time travel: as of step 4, one model call and one tool call, the first call's spend.
      const then = chainAsOf(first.chain, 4);
      expect(then.chain.steps).toHaveLength(4);
      expect(then.ledger).toMatchObject({ modelCalls: 1, toolCalls: 1, costUsd: 0.001, iteration: 1 });
      expect(then.chain.status).toBe('thinking');

      // The auditor's export: who started it, every model call whole, sealed; a one-character edit is named.
      expect(report.run.caller).toEqual({ id: 'alice', roles: ['analyst'] });
      expect(report.modelCalls?.map((c) => c.request.messages.length)).toEqual(
        original.calls.map((c) => c.messages.length),
      );
      expect(report.modelCalls?.[1]?.request.messages).toEqual(original.calls[1]!.messages);
      expect(report.modelCalls?.[2]?.reply?.content).toEqual([
        expect.objectContaining({ type: 'tool_use', name: 'finish' }),
      ]);
      const file = JSON.stringify(sealAll(report), null, 2);
      expect(allProblems(verifyReport(JSON.parse(file)))).toEqual([]);
      const edited = file.replace('"report.txt"', '"report.txT"');
      expect(edited).not.toBe(file);
      const problems = allProblems(verifyReport(JSON.parse(edited)));
      expect(problems[0]).toMatch(/^step 7 \(.+\) was altered/);
    },
  );
});
