import { describe, expect, it } from 'vitest';
import { say, useTool } from '../../../src/activities/models/scripted-model';
import type { ModelRequest } from '../../../src/domain';
import { createReplyRecorder, loadRecordedTurns } from '../../../src/activities/recording';
import { createReplayModel } from '../../../src/eval/replay/replay-model';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const request = (over: Partial<ModelRequest>): ModelRequest => ({
  provider: 'replay',
  model: 'planned-case',
  system: 'system',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'task' }] }],
  tools: [{ name: 'lookup', description: 'Looks up', inputSchema: { type: 'object' } }],
  toolChoice: 'auto',
  maxTokens: 100,
  ...over,
});
const planner = request({ tools: [], toolChoice: 'none', system: 'You plan' });

describe("a replayed case's planner call", () => {
  const turns = [
    { side: true, content: [say('{"tasks":[]}')] },
    { content: [say('Looking.'), useTool('lookup', { key: 'a' }, 'toolu_1')] },
    { content: [say('Done.')] },
  ];
  const model = createReplayModel(() => turns);
  const text = async (r: ModelRequest) =>
    (await model.complete(r, new AbortController().signal)).content.map((b) =>
      b.type === 'text' ? b.text : b.type === 'tool_use' ? b.name : b.type,
    );

  it('gets the side reply, and the loop its own turns, whatever order they were recorded in', async () => {
    expect(await text(planner)).toEqual(['{"tasks":[]}']);
    expect(await text(request({}))).toEqual(['Looking.', 'lookup']);
    const after = request({
      messages: [...request({}).messages, { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }] }],
    });
    expect(await text(after)).toEqual(['Done.']);
  });

  it("is not a text ReAct turn, which offers no tools but may call them, nor the loop's last answer", async () => {
    expect(await text(request({ tools: [] }))).toEqual(['Looking.', 'lookup']);
    const lastAnswer = request({
      tools: [],
      toolChoice: 'none',
      messages: [...request({}).messages, { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }] }],
    });
    expect(await text(lastAnswer)).toEqual(['Done.']);
  });

  it('names the side replies when a recording has none', async () => {
    const none = createReplayModel(() => turns.slice(1));
    await expect(none.complete(planner, new AbortController().signal)).rejects.toThrow(
      'has 0 side replies (for the planner)',
    );
  });
});

describe('--record', () => {
  it('marks the side reply, and loading keeps the mark for the replay', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'side-')), 'run.jsonl');
    const record = createReplyRecorder(file);
    const reply = { content: [say('plan')], stopReason: 'end_turn', model: 'm', costUsd: 0, durationMs: 1 };
    const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
    record('run-1', { ...reply, usage }, { side: true });
    record('run-1', { ...reply, usage }, { side: false });
    expect(loadRecordedTurns(file).map((t) => t.side ?? false)).toEqual([true, false]);
  });
});
