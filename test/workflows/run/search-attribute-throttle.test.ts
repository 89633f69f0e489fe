import { setTimeout as sleep } from 'node:timers/promises';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import { IterationAttribute, StatusAttribute, TokensAttribute } from '../../../src/shared';
import { defineTool } from '../../../src/tools/define-tool';
import { PROGRESS_UPSERT_INTERVAL_MS } from '../../../src/workflows/run/publish-progress';
import { scriptedInput } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();
const EventType = temporal.api.enums.v1.EventType;
const FAST_CALLS = 5;

describe('search attributes while a run runs', () => {
  it('upserts progress at most every interval, the status at once, and the final values at the end', { timeout: 60_000 }, async () => {
    // One slow call, so exactly one publish falls after the interval; the others are instant.
    const slow = defineTool({ name: 'slow', description: 'Takes a while', input: z.object({}), execute: async () => (await sleep(PROGRESS_UPSERT_INTERVAL_MS + 300), 'slow done') });
    const fast = defineTool({ name: 'fast', description: 'Answers at once', input: z.object({ n: z.number() }), execute: ({ n }) => `fast ${n}` });
    const turns: ScriptedTurn[] = [
      { content: [useTool('slow', {})] },
      ...Array.from({ length: FAST_CALLS }, (_, n) => ({ content: [useTool('fast', { n })] })),
      { content: [useTool('finish', { result: 'done' })] },
    ];
    const model = createScriptedModel(turns);
    const h = await createHarness(env, { tools: [slow, fast], models: { scripted: model } });
    const { result, upserts, attributes } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start(scriptedInput('Call the tools'));
      const result = await handle.result();
      const history = await handle.fetchHistory();
      const upserts = (history.events ?? [])
        .filter((e) => e.eventType === EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES)
        .map((e) => fields(e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {}))
        // The SDK's own upserts (TemporalChangeVersion, one per patch) are not the run's progress.
        .filter((u) => 'ThoughtlineStatus' in u);
      return { result, upserts, attributes: (await handle.describe()).typedSearchAttributes };
    });
    model.verify();

    // Unthrottled, each of the 7 replies and 6 results published an upsert; now: the first
    // (iteration 1), the first after the slow call (iteration 2), and the run's end.
    expect(upserts.map((u) => [u['ThoughtlineStatus'], u['ThoughtlineIteration']])).toEqual([
      ['thinking', 1],
      ['thinking', 2],
      ['success', FAST_CALLS + 2],
    ]);
    expect(attributes.get(StatusAttribute)).toBe('success');
    expect(attributes.get(IterationAttribute)).toBe(result.iterations);
    expect(attributes.get(TokensAttribute)).toBe(result.usage.inputTokens + result.usage.outputTokens);
  });
});

/** A search attribute upsert's values by name (each is a JSON payload). */
function fields(indexed: Record<string, { data?: Uint8Array | null }>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(indexed).map(([name, payload]) => [name, JSON.parse(Buffer.from(payload.data ?? []).toString('utf8'))]));
}
