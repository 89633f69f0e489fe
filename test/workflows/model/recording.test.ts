import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../src/activities/models/anthropic/anthropic-provider';
import { createScriptedModel } from '../../../src/activities/models/scripted-model';
import { createReplyRecorder, loadRecordedTurns } from '../../../src/activities/recording';
import type { AgentInputInit } from '../../../src/domain';
import { startFakeMessagesServer, text, toolUse } from '../../../src/testing';
import { stepTypesWithToolNames } from '../../helpers/chain-helpers';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';

const env = useTestEnv();

describe('recording a session', () => {
  it('records the replies of a real-model run, secrets redacted, and replays them offline through the scripted provider', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rec-')), 'session.jsonl');
    const apiKey = 'sk-ant-live-key-ABCDEFGHIJKLMNOP';
    const fake = await startFakeMessagesServer({
      script: [
        toolUse('lookup', { key: 'alpha' }, { text: 'Looking up alpha.' }),
        text(`alpha is 50 (debug: key ${apiKey})`),
      ],
    });
    const input: AgentInputInit = {
      task: 'What is alpha?',
      model: { provider: 'anthropic', model: 'claude-sonnet-4-6' },
    };
    const live = await createHarness(env, {
      tools: testTools().tools,
      models: { anthropic: createAnthropicProvider({ apiKey, baseURL: fake.baseUrl }) },
      onModelReply: createReplyRecorder(file, { secrets: [apiKey] }),
    });
    const recorded = await live.worker.runUntil(async () => (await live.agents.start(input)).result());
    await fake.close();

    const saved = fs.readFileSync(file, 'utf8');
    expect(saved.trim().split('\n')).toHaveLength(2);
    expect(saved).not.toContain(apiKey);
    expect(saved).toContain('[REDACTED]');
    expect(saved).not.toContain('What is alpha?'); // replies only, never the prompt

    // Offline: the same run, with the recording standing in for the model.
    const scripted = createScriptedModel(loadRecordedTurns(file));
    const offline = await createHarness(env, { tools: testTools().tools, models: { anthropic: scripted } });
    const replayed = await offline.worker.runUntil(async () => (await offline.agents.start(input)).result());
    scripted.verify();
    expect(replayed).toMatchObject({ success: true, toolCalls: 1, finalAnswer: 'alpha is 50 (debug: key [REDACTED])' });
    expect(stepTypesWithToolNames(replayed.chain.steps)).toEqual(stepTypesWithToolNames(recorded.chain.steps));
    expect(replayed.usage).toEqual(recorded.usage);
  });
});
