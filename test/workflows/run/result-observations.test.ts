import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool } from '../../../src/activities/models/scripted-model';
import { restoreObservations } from '../../../src/client/chain/restore-observations';
import { readShortened, type ReasoningChain } from '../../../src/domain';
import { defineTool } from '../../../src/tools/define-tool';
import { suiteReplayOptions } from '../../helpers/replay-runtime';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const LONG = Array.from({ length: 500 }, (_, i) => `line ${i};`).join(' ');
const LONG_OBJECT = { rows: Array.from({ length: 120 }, (_, i) => ({ id: i, name: `row ${i}` })) };
const long = defineTool({
  name: 'long',
  description: 'A long text',
  input: z.object({}),
  effects: 'none',
  execute: () => LONG,
});
const rows = defineTool({ name: 'rows', description: 'Many rows', input: z.object({}), execute: () => LONG_OBJECT });
const short = defineTool({
  name: 'short',
  description: 'A short text',
  input: z.object({}),
  execute: () => 'short answer',
});
const localLong = defineTool({
  name: 'local_long',
  description: 'A long text, locally',
  input: z.object({}),
  local: true,
  execute: () => LONG,
});

/** The observations of `chain`'s tool results, by tool, in order. */
function observations(chain: ReasoningChain): Array<[string, unknown]> {
  const names = new Map(
    chain.steps.flatMap((s) =>
      s.type === 'tool_call' ? [[s.toolCall.correlationId, s.toolCall.toolName] as const] : [],
    ),
  );
  return chain.steps.flatMap((s) =>
    s.type === 'tool_result' && s.model === undefined && names.get(s.toolResult.correlationId) !== 'finish'
      ? [[names.get(s.toolResult.correlationId) ?? '?', s.toolResult.result] as [string, unknown]]
      : [],
  );
}

async function patchMarkers(workflowId: string): Promise<string[]> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? [])
    .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
    .flatMap((m) => Object.values(m.markerRecordedEventAttributes?.details ?? {}).flatMap((d) => d.payloads ?? []))
    .map((p) => Buffer.from(p.data ?? []).toString('utf8'));
}

describe("a finished run's result names the long observations its history holds, and readers put them back", () => {
  it(
    'cuts each long activity result in the result, and result(), chain() and its pages restore them exactly',
    { timeout: 120_000 },
    async () => {
      const model = createScriptedModel([
        { content: [useTool('long', {})] },
        { content: [useTool('rows', {})] },
        { content: [useTool('short', {})] },
        // A repeated read-only call reuses the observation with no activity: the result keeps it whole.
        { content: [useTool('long', {})] },
        { content: [useTool('finish', { result: 'done' })] },
      ]);
      const h = await createHarness(env, { tools: [long, rows, short], models: { scripted: model } });
      const handle = await h.worker.runUntil(async () => {
        const started = await h.agents.start({
          task: 'Read',
          model: SCRIPTED_MODEL,
          maxIterations: 10,
          maxToolResultChars: 20_000,
        });
        await started.result();
        return started;
      });
      model.verify();

      // As recorded: the activity results over 1,000 characters are cut, with a marker naming this run.
      const recorded = await handle.result();
      const { runId } = await handle.describe();
      const [first, second, third, fourth] = observations(recorded.chain);
      expect(first![0]).toBe('long');
      expect(readShortened(first![1] as string)).toEqual({
        head: LONG.slice(0, 1_000),
        length: LONG.length,
        where: 'in the result',
        runId,
      });
      const rowsText = JSON.stringify(LONG_OBJECT);
      expect(readShortened(second![1] as string)).toEqual({
        head: rowsText.slice(0, 1_000),
        length: rowsText.length,
        where: 'in the result',
        runId,
      });
      expect(third).toEqual(['short', 'short answer']);
      expect(fourth).toEqual(['long', LONG]);
      // One code path: nothing in the run asks `patched()`.
      expect(await patchMarkers(handle.workflowId)).toEqual([]);

      // Read through the client: the full observations, as the tools returned them, with no worker.
      const expected: Array<[string, unknown]> = [
        ['long', LONG],
        ['rows', LONG_OBJECT],
        ['short', 'short answer'],
        ['long', LONG],
      ];
      expect(observations((await h.agents.result(handle.workflowId)).chain)).toEqual(expected);
      expect(observations(await h.agents.chain(handle.workflowId, 'auditor'))).toEqual(expected);
      const resultStep = recorded.chain.steps.find((s) => s.type === 'tool_result' && s.model === undefined)!;
      const page = await h.agents.chain(handle.workflowId, 'developer', {
        afterStep: resultStep.stepNumber - 1,
        limit: 1,
      });
      expect(page.steps).toHaveLength(1);
      expect(page.steps[0]).toMatchObject({ type: 'tool_result', toolResult: { result: LONG } });

      // The run replays.
      const history = await env.client.workflow.getHandle(handle.workflowId).fetchHistory();
      await expect(Worker.runReplayHistory(suiteReplayOptions(), history, handle.workflowId)).resolves.toBeUndefined();
    },
  );

  it(
    "leaves a local tool's result whole (it is a marker, not an activity result) and records no patch marker",
    { timeout: 120_000 },
    async () => {
      const model = createScriptedModel([
        { content: [useTool('local_long', {})] },
        { content: [useTool('short', {})] },
        { content: [useTool('finish', { result: 'done' })] },
      ]);
      const h = await createHarness(env, {
        tools: [localLong, short],
        models: { scripted: model },
      });
      const handle = await h.worker.runUntil(async () => {
        const started = await h.agents.start({
          task: 'Read',
          model: SCRIPTED_MODEL,
          maxIterations: 10,
          maxToolResultChars: 20_000,
        });
        await started.result();
        return started;
      });
      model.verify();
      expect(observations((await handle.result()).chain)).toEqual([
        ['local_long', LONG],
        ['short', 'short answer'],
      ]);
      expect(await patchMarkers(handle.workflowId)).toEqual([]);
    },
  );

  it(
    'a marker whose text the history does not hold stays as it is: nothing is made up',
    { timeout: 120_000 },
    async () => {
      const model = createScriptedModel([
        { content: [useTool('long', {})] },
        { content: [useTool('finish', { result: 'done' })] },
      ]);
      const h = await createHarness(env, { tools: [long], models: { scripted: model } });
      const handle = await h.worker.runUntil(async () => {
        const started = await h.agents.start({
          task: 'Read',
          model: SCRIPTED_MODEL,
          maxIterations: 10,
          maxToolResultChars: 20_000,
        });
        await started.result();
        return started;
      });
      const recorded = await handle.result();
      const step = recorded.chain.steps.find((s) => s.type === 'tool_result' && s.model === undefined)!;
      const marker = readShortened(step.type === 'tool_result' ? (step.toolResult.result as string) : '')!;
      // A chain claiming a longer text than the activity returned, and one naming a run that does not exist.
      const lying = (text: string) => ({
        ...recorded.chain,
        steps: recorded.chain.steps.map((s) =>
          s.stepId === step.stepId && s.type === 'tool_result'
            ? { ...s, toolResult: { ...s.toolResult, result: text } }
            : s,
        ),
      });
      const longer = lying(
        `${marker.head}…[${marker.length + 1} characters; shortened in the result, in full in run ${marker.runId}]`,
      );
      expect(await restoreObservations(env.client, handle.workflowId, longer)).toEqual(longer);
      const elsewhere = lying(
        `${marker.head}…[${marker.length} characters; shortened in the result, in full in run 00000000-0000-4000-8000-000000000000]`,
      );
      expect(await restoreObservations(env.client, handle.workflowId, elsewhere)).toEqual(elsewhere);
    },
  );
});
