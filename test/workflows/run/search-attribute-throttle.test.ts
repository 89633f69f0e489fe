import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import { IterationAttribute, StatusAttribute, TokensAttribute } from '../../../src/domain';
import { defineTool } from '../../../src/tools/define-tool';
import { waitForPending, writeFileTool } from '../../helpers/approval-helpers';
import { scriptedInput } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();
const EventType = temporal.api.enums.v1.EventType;
const FAST_CALLS = 4;

describe('search attributes while a run runs', () => {
  it(
    'upserts at each change of status and at the end: never for progress alone, nor for a first reply that changes nothing',
    { timeout: 60_000 },
    async () => {
      const fast = defineTool({
        name: 'fast',
        description: 'Answers at once',
        input: z.object({ n: z.number() }),
        execute: ({ n }) => `fast ${n}`,
      });
      const ran: Array<Record<string, unknown>> = [];
      const turns: ScriptedTurn[] = [
        ...Array.from({ length: FAST_CALLS }, (_, n) => ({ content: [useTool('fast', { n })] })),
        { content: [useTool('write_file', { path: '/tmp/throttle', text: 'x' }, 'toolu_write')] },
        { content: [useTool('fast', { n: FAST_CALLS })] },
        { content: [useTool('finish', { result: 'done' })] },
      ];
      const model = createScriptedModel(turns);
      const h = await createHarness(env, { tools: [fast, writeFileTool(ran)], models: { scripted: model } });
      const { result, upserts, attributes } = await h.worker.runUntil(async () => {
        const handle = await h.agents.start({ ...scriptedInput('Call the tools'), approvalTimeoutMs: 60_000 });
        await waitForPending(h.agents, handle.workflowId);
        await h.agents.decide(handle.workflowId, {
          callId: 'toolu_write',
          approved: true,
          by: { id: 'alice', roles: [] },
        });
        const result = await handle.result();
        const history = await handle.fetchHistory();
        const upserts = (history.events ?? [])
          .filter((e) => e.eventType === EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES)
          .map((e) => fields(e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {}));
        return { result, upserts, attributes: (await handle.describe()).typedSearchAttributes };
      });
      model.verify();
      expect(ran).toHaveLength(1);

      // Every upsert is the run's own (no TemporalChangeVersion: nothing asks patched()). Seven replies
      // and six results published; the start set `running` and the model, which the first reply left
      // as they were; only each change of status (the wait for approval, running again) and the end upserted.
      expect(upserts.map((u) => Object.keys(u).sort())).toEqual(
        upserts.map(() => [
          'ThoughtlineCostUsd',
          'ThoughtlineIteration',
          'ThoughtlineModel',
          'ThoughtlineStatus',
          'ThoughtlineTokens',
        ]),
      );
      expect(upserts.map((u) => [u['ThoughtlineStatus'], u['ThoughtlineIteration']])).toEqual([
        ['waiting_approval', FAST_CALLS + 1],
        ['running', FAST_CALLS + 1],
        ['success', FAST_CALLS + 3],
      ]);
      expect(attributes.get(StatusAttribute)).toBe('success');
      expect(attributes.get(IterationAttribute)).toBe(result.iterations);
      expect(attributes.get(TokensAttribute)).toBe(result.usage.inputTokens + result.usage.outputTokens);
    },
  );
});

/** A search attribute upsert's values by name (each is a JSON payload). */
function fields(indexed: Record<string, { data?: Uint8Array | null }>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(indexed).map(([name, payload]) => [
      name,
      JSON.parse(Buffer.from(payload.data ?? []).toString('utf8')),
    ]),
  );
}
