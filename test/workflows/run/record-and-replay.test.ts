import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import { createReplyRecorder, loadRecordedTurns } from '../../../src/activities/recording';
import type { ReasoningStep } from '../../../src/domain';
import { defineTool } from '../../../src/tools/define-tool';
import { recordToolCalls, replayToolCalls } from '../../../src/tools/recorded-tools';
import { scriptedInput } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

/** What a replay must reproduce: each step's kind, tool, arguments and result (not ids or times). */
const shape = (steps: readonly ReasoningStep[]) =>
  steps.map((s) =>
    s.type === 'tool_call'
      ? ['call', s.toolCall.toolName, s.toolCall.arguments]
      : s.type === 'tool_result'
        ? ['result', s.toolResult.success, s.toolResult.result, s.toolResult.error ?? null]
        : [s.type],
  );

describe('run --record: model replies and tool executions, replayed offline with both mocked', () => {
  it(
    'replays a recorded run to the same chain, with no tool run and no model called, and fails loudly on a call the recording lacks',
    { timeout: 60_000 },
    async () => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tl-rec-')), 'run.jsonl');
      let attempts = 0;
      const live = [
        defineTool({
          name: 'stock',
          description: 'Stock level',
          input: z.object({ sku: z.string() }),
          effects: 'none',
          execute: ({ sku }) => ({ sku, units: 7 }),
        }),
        // Fails once, then works: the replay must fail and retry the same way.
        defineTool({
          name: 'reserve',
          description: 'Reserve units',
          input: z.object({ sku: z.string(), units: z.number() }),
          retry: { maximumAttempts: 2, initialIntervalMs: 10, backoffCoefficient: 1 },
          execute: ({ units }) => {
            attempts += 1;
            if (attempts === 1) throw new Error('warehouse busy');
            return `reserved ${units}`;
          },
        }),
      ];
      const model = createScriptedModel([
        { content: [say('Check stock.'), useTool('stock', { sku: 'A1' })] },
        { content: [useTool('reserve', { sku: 'A1', units: 3 })] },
        { content: [useTool('finish', { result: 'Reserved 3 of 7.' })] },
      ]);
      const recording = await createHarness(env, {
        tools: recordToolCalls(live, file),
        models: { scripted: model },
        onModelReply: createReplyRecorder(file),
      });
      const original = await recording.worker.runUntil(async () =>
        (await recording.agents.start(scriptedInput('Reserve 3 of A1'))).result(),
      );
      model.verify();
      const lines = fs
        .readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { kind?: string; error?: string });
      expect(lines.filter((l) => l.kind === 'tool')).toHaveLength(3);
      expect(lines.filter((l) => l.kind === 'tool' && l.error === 'warehouse busy')).toHaveLength(1);

      // The replay's tools would throw if they ran; its model is the recording.
      const never = live.map((t) => ({
        ...t,
        execute: () => {
          throw new Error(`${t.name} must not run in a replay`);
        },
      }));
      const replay = replayToolCalls(never, file);
      const played = createScriptedModel(loadRecordedTurns(file));
      const offline = await createHarness(env, { tools: replay.tools, models: { scripted: played } });
      const replayed = await offline.worker.runUntil(async () =>
        (await offline.agents.start(scriptedInput('Reserve 3 of A1'))).result(),
      );
      played.verify();
      replay.verify();
      expect(replayed.finalAnswer).toBe(original.finalAnswer);
      expect(shape(replayed.chain.steps)).toEqual(shape(original.chain.steps));
      expect(played.calls.map((c) => c.messages)).toEqual(model.calls.map((c) => c.messages));
      expect(attempts).toBe(2);

      // Another argument than recorded: a clear, final failure, and verify names it.
      const strict = replayToolCalls(never, file);
      await expect(
        strict.tools[0]!.execute(
          { sku: 'B2' },
          {
            idempotencyKey: 'k',
            signal: new AbortController().signal,
            heartbeat: () => {},
            narrowVisibility: () => {},
            progress: () => {},
          },
        ),
      ).rejects.toThrow(/No recorded execution of stock with arguments \{"sku":"B2"\}/);
      expect(() => strict.verify()).toThrow(/No recorded execution of stock/);
    },
  );
});
