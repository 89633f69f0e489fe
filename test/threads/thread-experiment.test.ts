import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { defineAgent } from '../../src/agents/define-agent';
import { readThread, sendThreadTurn, threadWorkflowId } from '../../src/client/threads/thread-client';
import { zeroUsage, type ModelReply } from '../../src/domain';
import { assignVariant } from '../../src/domain/agents/agent-experiment';
import type { ModelProvider } from '../../src/domain/model/model-provider';
import type { ThreadStartInit } from '../../src/domain/threads/thread-schemas';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';

const env = useTestEnv();
const support = defineAgent({
  id: 'support',
  description: 'Answers support questions.',
  version: '1.0.0',
  systemPrompt: 'Variant A. You answer in one line.',
  tools: ['lookup'],
  experiment: {
    name: `thread-tone-${randomUUID().slice(0, 8)}`,
    assignBy: 'thread',
    variants: [
      { name: 'a', weight: 1 },
      { name: 'b', weight: 1, systemPrompt: 'Variant B. You answer in one line.' },
    ],
  },
});

/** Answers with the variant its prompt names, so each turn shows which variant served it. */
const model: ModelProvider = {
  name: 'scripted',
  async complete(request): Promise<ModelReply> {
    const variant = request.system.startsWith('Variant B.') ? 'b' : 'a';
    return {
      content: [say('Answering.'), useTool('finish', { result: `served by ${variant}` })],
      stopReason: 'tool_use',
      model: request.model,
      usage: { ...zeroUsage(), inputTokens: 10, outputTokens: 5 },
      costUsd: 0,
      durationMs: 0,
    };
  },
};

let h: AgentHarness;
let running: Promise<void>;
beforeAll(async () => {
  // Turn runs use the default model (the definition names none): this provider answers for it.
  h = await createHarness(env, { tools: testTools().tools, models: { anthropic: model }, agents: [support] });
  running = h.worker.run();
});
afterAll(async () => {
  h?.worker.shutdown();
  await running;
});

const owner = { id: 'ada', roles: ['developer'] };

async function settled(workflowId: string, turns: number) {
  for (let i = 0; i < 300; i++) {
    const view = await readThread(h.agents, workflowId);
    if (view && view.turns.length === turns && view.turns.every((t) => t.status !== 'running')) return view;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`thread ${workflowId} did not settle`);
}

describe('an experiment assigned by thread', () => {
  it("gives every turn of a thread the thread's variant, and two threads of one owner their own", async () => {
    // Two threads of the same owner that the hash puts in different variants.
    const byVariant = new Map<string, string>();
    for (let i = 0; byVariant.size < 2; i++) {
      const threadId = `exp-${randomUUID()}-${i}`;
      const variant = assignVariant(support.experiment!, threadWorkflowId(owner, threadId)).name;
      if (!byVariant.has(variant)) byVariant.set(variant, threadId);
    }
    for (const [variant, threadId] of byVariant) {
      const start: ThreadStartInit = { threadId, owner, agent: { agent: 'support' } };
      const workflowId = threadWorkflowId(owner, threadId);
      await sendThreadTurn(h.agents, start, { turnId: 'r1', text: 'First question', by: owner });
      await settled(workflowId, 1);
      const second = await sendThreadTurn(h.agents, start, { turnId: 'r2', text: 'Second question', by: owner });
      const view = await settled(workflowId, 2);
      expect(view.turns.map((t) => t.answer)).toEqual([`served by ${variant}`, `served by ${variant}`]);
      const result = await h.agents.result(second.runId);
      expect(result.agent?.experiment).toEqual({ name: support.experiment!.name, variant, by: 'thread' });
    }
  }, 240_000);
});
