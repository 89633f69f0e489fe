import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Task } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentClient } from '../../src/client/agent-client';
import { renderChainMarkdown } from '../../src/domain/chain/render-chain-markdown';
import { markdownText } from '../../src/domain/text/markdown-escape';
import { renderStep } from '../../src/cli/render/render-step';
import { createAgentWorker } from '../../src/worker';
import { startA2aHarness, type A2aHarness } from '../a2a/a2a-harness';
import { lastToolResults } from '../helpers/approval-helpers';
import { resultStep } from '../helpers/chain-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { routedModel } from '../server/server-harness';
import { viewerModule } from '../viewer/viewer-module';
import { a2aTextMessage } from '../helpers/a2a-message';

/**
 * Issue 65, 002 #99, over real HTTP on the dev server: a Thoughtline A2A server (B, two `serve`
 * instances) gives each ended task a second artifact, its chain as the caller may view it; a run
 * on another worker (A) delegating to B links B's chain into its own chain on the call's step,
 * and the CLI and markdown show B's steps there.
 */
const env = useTestEnv();
const model = routedModel();
const TOKEN_ENV = 'TL_TEST_A2A_CHAIN_TOKEN';
const THOUGHT = 'I will read the gamma table first.';

let b: A2aHarness;
beforeAll(async () => {
  b = await startA2aHarness(env, {
    tools: testTools().tools,
    model,
    agents: [
      defineAgent({
        id: 'researcher',
        description: 'Looks values up.',
        version: '1.0.0',
        systemPrompt: 'You are the research agent.',
        tools: ['lookup'],
      }),
    ],
  });
  process.env[TOKEN_ENV] = b.tokens.dev;
});
afterAll(async () => {
  delete process.env[TOKEN_ENV];
  await b?.close();
});

const script = (key: string) =>
  model.script(key, [
    { content: [say(THOUGHT), useTool('lookup', { key: 'gamma' })] },
    { content: [useTool('finish', { result: 'gamma is 50' })] },
  ]);

const message = a2aTextMessage;

const chainArtifact = (task: Task) => task.artifacts.find((a) => a.artifactId === 'reasoning-chain');

describe('the viewed chain as an A2A artifact', () => {
  it('an ended task carries its chain in the caller’s own view, with a stable id and media type', async () => {
    script('chain-artifact-dev');
    const dev = await b.client('dev', 'researcher');
    const sent = (await dev.sendMessage({
      tenant: '',
      message: message('chain-artifact-dev: find gamma'),
      configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: false },
      metadata: undefined,
    })) as Task;
    expect(sent.status?.state).toBe(3);
    // The answer stays the first artifact, and its text is the answer alone.
    expect(sent.artifacts[0]?.artifactId).toBe('final-answer');
    const artifact = chainArtifact(sent);
    expect(artifact).toBeDefined();
    const part = artifact!.parts[0]!;
    expect(part.mediaType).toBe('application/vnd.thoughtline.chain+json');
    expect(part.content?.$case).toBe('data');
    const data = (part.content as { value: Record<string, any> }).value;
    expect(data).toMatchObject({ kind: 'thoughtline-chain', version: 1, runId: sent.id, view: 'developer' });
    expect(data.totalSteps).toBe(data.steps.length);
    expect(data.truncated).toBeUndefined();
    expect(data.steps.some((s: any) => s.type === 'thinking' && s.thought === THOUGHT)).toBe(true);
    // The developer sees model calls' tokens; the same task read by an auditor on the other server is in the auditor's view.
    expect(data.steps.some((s: any) => s.usage !== undefined)).toBe(true);
    const read = await (await b.client('auditor', 'researcher', b.servers[1])).getTask({ tenant: '', id: sent.id });
    const audited = (chainArtifact(read)!.parts[0]!.content as { value: Record<string, any> }).value;
    expect(audited.view).toBe('auditor');
  });

  it('an end user’s task carries the chain an end user sees: model calls as summaries, no tokens', async () => {
    script('chain-artifact-user');
    const user = await b.client('user', 'researcher');
    const sent = (await user.sendMessage({
      tenant: '',
      message: message('chain-artifact-user: find gamma'),
      configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: false },
      metadata: undefined,
    })) as Task;
    const data = (chainArtifact(sent)!.parts[0]!.content as { value: Record<string, any> }).value;
    expect(data.view).toBe('end_user');
    expect(data.steps.length).toBeGreaterThan(0);
    expect(data.steps.every((s: any) => s.usage === undefined && s.costUsd === undefined)).toBe(true);
  });
});

describe('a remote agent’s chain linked into the parent’s', () => {
  it('records the remote chain on the delegating step, shown as the remote agent’s steps', async () => {
    script('chain-link-gamma');
    const origin = b.servers[0].url;
    const card = `${origin}/a2a/researcher/.well-known/agent-card.json`;
    const taskQueue = `a2a-chain-${randomUUID()}`;
    const lead = createScriptedModel([
      { content: [say('The researcher knows.'), useTool('researcher_remote', { task: 'chain-link-gamma' }, 'call_b')] },
      {
        content: (request) => [
          useTool('finish', { result: `B says: ${lastToolResults(request.messages)[0]?.content}` }),
        ],
      },
    ]);
    const worker = await createAgentWorker({
      connection: env.nativeConnection,
      namespace: inject('temporalNamespace'),
      taskQueue,
      tools: [],
      models: { scripted: lead },
      secrets: [],
      a2a: { allow: [origin], auth: { [origin]: { bearerEnv: TOKEN_ENV } } },
      workflowBundle: { codePath: inject('workflowBundlePath') },
    });
    const agents = new AgentClient({ client: env.client, taskQueue });
    const result = await worker.runUntil(async () => {
      const handle = await agents.start({
        task: 'What is gamma?',
        model: SCRIPTED_MODEL,
        requireThought: false,
        agents: { researcher_remote: { description: 'A remote researcher', a2a: { card } } },
      });
      return handle.result();
    });
    // The answer is the remote's answer alone: the chain artifact adds nothing to it.
    expect(result).toMatchObject({ success: true, finalAnswer: 'B says: gamma is 50' });
    const step = resultStep(result.chain.steps, 'call_b')!;
    const sub = step.toolResult.subAgent!;
    const chain = sub.remote!.chain!;
    expect(chain).toMatchObject({ runId: sub.runId, view: 'developer', url: `${origin}/v1/runs/${sub.runId}/chain` });
    expect(chain.refused).toBeUndefined();
    expect(chain.totalSteps).toBeGreaterThanOrEqual(4);
    expect(chain.steps).toContainEqual({ type: 'thinking', text: THOUGHT });
    expect(chain.steps.some((s) => s.type === 'tool_call' && s.text.includes('lookup'))).toBe(true);
    // The CLI and the markdown export show B's steps under the call.
    const line = renderStep(step);
    expect(line).toContain('researcher_remote’s steps (remote');
    expect(line).toContain(THOUGHT);
    const markdown = renderChainMarkdown(result.chain);
    expect(markdown).toContain(`Thought: ${markdownText(THOUGHT)}`);
    expect(markdown).toContain(markdownText(`${origin}/v1/runs/${sub.runId}/chain`));
    // The parent records the remote's step count, as it does a local child's.
    expect(sub.steps).toBe(chain.totalSteps);
    // The viewer folds out the same lines where a local child's chain would load.
    const viewer = await viewerModule<{
      remoteChainText(
        agent: string,
        chain: unknown,
      ): { heading: string; url?: string; lines: Array<{ label: string; text: string }> };
    }>('format.js');
    const shown = viewer.remoteChainText(sub.agentName, chain);
    expect(shown.heading).toBe(`researcher_remote’s steps (remote, developer view, ${chain.totalSteps} steps)`);
    expect(shown.url).toBe(chain.url);
    expect(shown.lines).toContainEqual({ label: 'Thought', text: THOUGHT });
    // The remote's token never enters the chain.
    expect(JSON.stringify(result.chain)).not.toContain(b.tokens.dev);
  });
});
