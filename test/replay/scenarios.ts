import { z } from 'zod';
import { say, useTool, type ScriptedTurn } from '../../src/activities/models/scripted-model';
import { defineTool } from '../../src/tools/define-tool';
import type { AgentClient } from '../../src/client/agent-client';
import type { AgentInputInit } from '../../src/domain';
import type { McpConfigInit } from '../../src/domain/tools/mcp-config';
import type { TenantLimits } from '../../src/domain/identity/tenant-limits';
import type { ToolDefinition } from '../../src/tools/define-tool';
import { cancelSignal, steerSignal } from '../../src/workflows/messages';
import { inMemorySigner } from '../../src/server/signing/keyring-signer';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { slowTool } from '../helpers/test-tools';
import { createScriptedModel } from '../../src/activities/models/scripted-model';
import { ModelRegistry } from '../../src/domain';
import { createLlmTool } from '../../src/tools/builtin/llm';
import { EVERYTHING_SERVER } from '../mcp/mcp-test-servers';
import type { A2aSettingsInit } from '../../src/activities/a2a/a2a-settings';
import { startMinimalA2aServer } from '../a2a-remote/minimal-a2a-server';

/** Stands for the card of the remote agent a scenario's `remote` starts; the recorder puts the real one in the input. */
export const REMOTE_CARD = 'http://remote-agent.invalid/.well-known/agent-card.json';

/** Runs whose histories are kept as replay fixtures: together they take every branch of the loop. */
export interface ReplayScenario {
  name: string;
  input: AgentInputInit;
  turns: ScriptedTurn[];
  /** Per-tenant limits the recording worker enforces, for runs that name a tenant. */
  tenantLimits?: { tenants: Record<string, TenantLimits> };
  /** What people do while the run goes (approve, steer, answer); the recorder awaits it. */
  interact?: (agents: AgentClient, workflowId: string) => Promise<void>;
  /** Tools the recording worker has besides testTools(). */
  extraTools?: () => ToolDefinition[];
  /** MCP servers the recording worker connects to (replaying needs none: no activity runs). */
  mcp?: () => McpConfigInit;
  /** A remote A2A agent the recording worker may call (replaying needs none: no activity runs). */
  remote?: () => Promise<{ card: string; a2a: A2aSettingsInit; close(): Promise<void> }>;
  /** Which Temporal run's history is kept: the last (default), or the first (the one that handed over). */
  fixtureRun?: 'first';
}

/** Polls until `ready` holds; people act on what they see in the run's status. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the run never reached the awaited state');
}
/** Olga cancels the run once its second iteration has called its tool. */
async function cancelInSecondIteration(agents: AgentClient, id: string): Promise<void> {
  await until(async () => {
    const status = await agents.status(id);
    return status.iteration === 2 && status.lastStep?.endsWith('tool_call') === true;
  });
  await agents.getHandle(id).signal(cancelSignal, { reason: 'the job is no longer needed', by: 'olga' });
}
/** Three lookups, then the answer; tool-call ids start with `toolu_${prefix}`. */
const threeLookups = (prefix: string): ScriptedTurn[] => [
  ...Array.from({ length: 3 }, (_, i) => ({
    content: [useTool('lookup', { key: `k${i + 1}` }, `toolu_${prefix}${i + 1}`)],
  })),
  { content: [useTool('finish', { result: 'looked up' }, `toolu_${prefix}z`)] },
];
const secretKey = { lookup: { anyOf: [{ when: 'equals' as const, field: 'key', values: ['vault'] }] } };
const ops = { id: 'olga', roles: ['ops'] };
/** The key of the runs whose decisions are signed: their input lists it, the people's decisions carry it. */
const replaySigner = inMemorySigner('k-replay');
const olgaDeveloper = { id: 'olga', roles: ['developer'], via: 'in-process' as const };

export const REPLAY_SCENARIOS: ReplayScenario[] = [
  {
    // A remote A2A agent as a sub-agent: the send, its task id in the tree, the await, the answer and its reported spend.
    name: 'remote-a2a-sub-agent',
    input: {
      task: 'Summarise the Q3 report',
      model: SCRIPTED_MODEL,
      costBudgetUsd: 1,
      agents: { remote_analyst: { description: 'Reads reports (remote)', a2a: { card: REMOTE_CARD } } },
    },
    remote: async () => {
      const server = await startMinimalA2aServer();
      void server.started.then(() =>
        server.release({
          kind: 'answer',
          text: 'Revenue grew 12%.',
          thoughtline: { runId: 'remote-run', costUsd: 0.02, usage: { inputTokens: 300, outputTokens: 40 } },
        }),
      );
      return { card: server.cardUrl, a2a: { allow: [server.origin] }, close: () => server.close() };
    },
    turns: [
      { content: [useTool('remote_analyst', { task: 'Summarise the Q3 report' }, 'toolu_a1')] },
      { content: [useTool('finish', { result: 'Revenue grew 12%.' }, 'toolu_a2')] },
    ],
  },
  {
    // A model as a tool: the budget check before it, its spend in the ledger, an llm step.
    name: 'ask-model',
    input: { task: 'Add two and two', model: SCRIPTED_MODEL, tokenBudget: 50_000 },
    extraTools: () => [
      createLlmTool({
        registry: ModelRegistry.parse({ models: { fast: { provider: 'openai-compatible', model: 'fast-1' } } }),
        providers: {
          'openai-compatible': createScriptedModel([
            { content: [say('4')], usage: { inputTokens: 30, outputTokens: 5 }, costUsd: 0.002 },
          ]),
        },
      }),
    ],
    turns: [
      { content: [useTool('ask_model', { model: 'fast', prompt: 'What is 2+2?' }, 'toolu_k1')] },
      { content: [useTool('finish', { result: '4' }, 'toolu_k2')] },
    ],
  },
  {
    // An MCP tool asks for input: a question on the desk, two answers refused (unreadable, then a
    // missing field, which the server's form check finds), the call run again with the third.
    name: 'mcp-elicitation',
    input: {
      task: 'Register me',
      model: SCRIPTED_MODEL,
      tools: ['everything__trigger-elicitation-request', 'everything__echo'],
    },
    mcp: () => ({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } } }),
    turns: [
      {
        content: [
          useTool('everything__echo', { message: 'hello' }, 'toolu_m1'),
          useTool('everything__trigger-elicitation-request', {}, 'toolu_m2'),
        ],
      },
      { content: [useTool('finish', { result: 'registered' }, 'toolu_m3')] },
    ],
    interact: async (agents, id) => {
      const asked = async (text: string) => ((await agents.status(id)).openQuestion?.question ?? '').includes(text);
      await until(() => asked('asks, during everything__trigger-elicitation-request'));
      await agents.answer(id, 'Ana', 'olga');
      await until(() => asked('Your last answer was not accepted: Answer with a JSON object'));
      await agents.answer(id, '{"check":true}', 'olga');
      await until(() => asked('Your last answer was not accepted: missing name'));
      await agents.answer(id, '{"name":"Ana Lima","check":true}', 'olga');
    },
  },
  {
    // Model calls by reference: each names the prefix it shares with the call before.
    name: 'conversation-by-reference',
    input: { task: 'Look up gamma then delta', model: SCRIPTED_MODEL },
    turns: [
      { content: [say('Gamma first.'), useTool('lookup', { key: 'gamma' }, 'toolu_r1')] },
      { content: [useTool('lookup', { key: 'delta' }, 'toolu_r2')] },
      { content: [useTool('finish', { result: 'gamma=50 delta=50' }, 'toolu_r3')] },
    ],
  },
  {
    // A fork: starts from another run's steps, conversation and ledger, with steering, then goes on; its chain names its caller.
    name: 'forked-run',
    input: {
      task: 'Look up alpha',
      model: SCRIPTED_MODEL,
      caller: { id: 'bob', roles: ['developer'] },
      fork: {
        from: { workflowId: 'replay-original', atStep: 4, keptThroughStep: 4 },
        steps: [
          {
            stepId: 'o1',
            stepNumber: 1,
            timestamp: '2026-11-23T08:00:00.000Z',
            iteration: 1,
            visibility: { level: 'full' },
            model: 'scripted-model',
            type: 'tool_call',
            toolCall: { toolType: 'llm', toolName: 'scripted-model', arguments: { messages: 1 }, correlationId: 'm1' },
          },
          {
            stepId: 'o2',
            stepNumber: 2,
            timestamp: '2026-11-23T08:00:00.100Z',
            iteration: 1,
            visibility: { level: 'full' },
            model: 'scripted-model',
            usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
            costUsd: 0.001,
            type: 'tool_result',
            toolResult: {
              correlationId: 'm1',
              success: true,
              result: { stopReason: 'tool_use', text: '', toolCalls: [{ id: 'toolu_o', name: 'lookup' }] },
              durationMs: 100,
            },
          },
          {
            stepId: 'o3',
            stepNumber: 3,
            timestamp: '2026-11-23T08:00:00.200Z',
            iteration: 1,
            visibility: { level: 'full' },
            type: 'tool_call',
            toolCall: { toolType: 'custom', toolName: 'lookup', arguments: { key: 'alpha' }, correlationId: 'toolu_o' },
          },
          {
            stepId: 'o4',
            stepNumber: 4,
            timestamp: '2026-11-23T08:00:00.300Z',
            iteration: 1,
            visibility: { level: 'full' },
            type: 'tool_result',
            toolResult: { correlationId: 'toolu_o', success: true, result: { key: 'alpha', value: 50 }, durationMs: 5 },
          },
        ],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Look up alpha' }] },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_o', name: 'lookup', input: { key: 'alpha' } }],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', toolUseId: 'toolu_o', content: '{"key":"alpha","value":50}', isError: false },
            ],
          },
        ],
        ledger: {
          usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
          costUsd: 0.001,
          iterations: 1,
          modelCalls: 1,
          toolCalls: 1,
        },
        steering: [{ text: 'Also look up beta.', by: 'bob' }],
        hazards: [
          {
            stepNumber: 7,
            toolName: 'always_fails',
            toolType: 'custom',
            approval: 'never',
            because: 'not declared read-only',
          },
        ],
        change: 'the instruction "Also look up beta."',
      },
    },
    turns: [
      { content: [useTool('lookup', { key: 'beta' }, 'toolu_fb')] },
      { content: [useTool('finish', { result: 'alpha=50 beta=40' }, 'toolu_ff')] },
    ],
  },
  {
    name: 'tools-then-finish',
    input: { task: 'Look up alpha and beta', model: SCRIPTED_MODEL },
    turns: [
      { content: [say('Alpha first.'), useTool('lookup', { key: 'alpha' }, 'toolu_a')] },
      { content: [useTool('lookup', { key: 'beta' }, 'toolu_b')] },
      { content: [say('Done.'), useTool('finish', { result: 'alpha=50 beta=40' }, 'toolu_f')] },
    ],
  },
  {
    name: 'text-answer',
    input: { task: 'Say hello', model: SCRIPTED_MODEL },
    turns: [{ content: [say('Hello!')] }],
  },
  {
    name: 'bad-calls-recover',
    input: { task: 'Try everything', model: SCRIPTED_MODEL },
    turns: [
      { content: [useTool('nonexistent_api', {}, 'toolu_1')] },
      { content: [useTool('lookup', { key: 7 }, 'toolu_2')] },
      { content: [useTool('always_fails', {}, 'toolu_3')] },
      { content: [useTool('finish', {}, 'toolu_4')] },
      { content: [useTool('big_result', { secret: true }, 'toolu_5')] },
      {
        content: [useTool('lookup', { key: 'late' }, 'toolu_6'), useTool('finish', { result: 'recovered' }, 'toolu_7')],
      },
    ],
  },
  {
    name: 'max-iterations-summary',
    input: { task: 'Never finish', model: SCRIPTED_MODEL, maxIterations: 2 },
    turns: [
      { content: [useTool('lookup', { key: 'a' }, 'toolu_x')] },
      { content: [useTool('lookup', { key: 'bb' }, 'toolu_y')] },
      { content: [say('Progress: a=10, bb=20. Remaining: nothing else was asked.')] },
    ],
  },
  {
    name: 'react-text',
    input: { task: 'Find alpha', model: SCRIPTED_MODEL, strategy: 'react-text' },
    turns: [
      { content: [say('Thought: look it up\nAction: lookup')] },
      { content: [say('Thought: look it up\nAction: lookup\nAction Input: {"key": "alpha"}')] },
      { content: [say('Thought: done\nFinal Answer: 50')] },
    ],
  },
  {
    name: 'stop-reasons',
    input: { task: 'Handle cut and paused replies', model: { ...SCRIPTED_MODEL, maxTokens: 50 } },
    turns: [
      { content: [useTool('lookup', { key: 'cut' }, 'toolu_cut')], stopReason: 'max_tokens' },
      { content: [useTool('lookup', { key: 'whole' }, 'toolu_whole')] },
      { content: [say('Working on it…')], stopReason: 'pause_turn' },
      { content: [useTool('finish', { result: 'whole=50' }, 'toolu_done')] },
    ],
  },
  {
    name: 'stall-warning-give-up',
    input: { task: 'Keep asking', model: SCRIPTED_MODEL, stallThreshold: 3, failurePhrases: ['CANNOT PROCEED'] },
    turns: [
      { content: [useTool('lookup', { key: 'alpha' }, 'toolu_s1')] },
      { content: [useTool('lookup', { key: 'alpha' }, 'toolu_s2')] },
      { content: [useTool('lookup', { key: 'alpha' }, 'toolu_s3')] },
      { content: [useTool('give_up', { reason: 'alpha never changes' }, 'toolu_s4')] },
    ],
  },
  {
    // Reworded calls count as repeats (similarCallThreshold): the second and third are not run.
    name: 'near-repeat-stall',
    input: { task: 'Look up the weather', model: SCRIPTED_MODEL, stallThreshold: 3 },
    turns: [
      { content: [useTool('lookup', { key: 'weather in Paris' }, 'toolu_n1')] },
      { content: [useTool('lookup', { key: 'Paris weather' }, 'toolu_n2')] },
      { content: [useTool('lookup', { key: 'the weather, Paris' }, 'toolu_n3')] },
      { content: [useTool('give_up', { reason: 'the weather lookup never changes' }, 'toolu_n4')] },
    ],
  },
  {
    name: 'token-budget-stop',
    input: { task: 'Spend carefully', model: SCRIPTED_MODEL, tokenBudget: 900 },
    turns: [{ content: [useTool('lookup', { key: 'alpha' }, 'toolu_b1')] }],
  },
  {
    name: 'continued-as-new',
    input: { task: 'Hand over every iteration', model: SCRIPTED_MODEL, continueAsNewEvery: 1 },
    turns: [
      { content: [useTool('lookup', { key: 'a' }, 'toolu_c1')] },
      { content: [useTool('lookup', { key: 'bb' }, 'toolu_c2')] },
      { content: [useTool('finish', { result: 'a=10 bb=20' }, 'toolu_c3')] },
    ],
  },
  {
    // A tool marked local: a local-activity marker in the workflow task instead of an activity task.
    name: 'local-tool',
    input: { task: 'Double 21', model: SCRIPTED_MODEL },
    extraTools: () => [
      defineTool({
        name: 'double',
        description: 'Doubles a number',
        input: z.object({ n: z.number() }),
        local: true,
        execute: ({ n }) => n * 2,
      }),
    ],
    turns: [
      { content: [useTool('double', { n: 21 }, 'toolu_l1')] },
      { content: [useTool('finish', { result: '42' }, 'toolu_l2')] },
    ],
  },
  {
    // Progress reaches the search attributes at most every few seconds: fewer upserts than publishes.
    name: 'throttled-progress',
    input: { task: 'Look up four keys', model: SCRIPTED_MODEL },
    turns: [
      ...['p1', 'p2', 'p3', 'p4'].map((key, i) => ({ content: [useTool('lookup', { key }, `toolu_p${i + 1}`)] })),
      { content: [useTool('finish', { result: 'looked up four' }, 'toolu_p5')] },
    ],
  },
  {
    // Long tool results named by hash in the next model call (known texts), a short one sent whole.
    name: 'known-tool-texts',
    input: { task: 'Read two big results', model: SCRIPTED_MODEL, maxToolResultChars: 6_000 },
    turns: [
      { content: [useTool('big_result', {}, 'toolu_b1'), useTool('lookup', { key: 'b' }, 'toolu_b2')] },
      { content: [useTool('big_result', {}, 'toolu_b3')] },
      { content: [useTool('finish', { result: 'read both' }, 'toolu_b4')] },
    ],
  },
  {
    // After a handover, the first model call names the carried tool results (known texts).
    name: 'known-texts-after-handover',
    input: { task: 'Read three big results', model: SCRIPTED_MODEL, continueAsNewEvery: 2, maxToolResultChars: 6_000 },
    turns: [
      ...Array.from({ length: 3 }, (_, i) => ({ content: [useTool('big_result', {}, `toolu_h${i + 1}`)] })),
      { content: [useTool('finish', { result: 'read three' }, 'toolu_hz')] },
    ],
  },
  {
    // A handover names the conversation its last model call sent...
    name: 'conversation-named-at-handover',
    input: { task: 'Look up three keys', model: SCRIPTED_MODEL, continueAsNewEvery: 2 },
    turns: threeLookups('n'),
    fixtureRun: 'first',
  },
  {
    // ...and the next Temporal run's first call builds on it, sending only the last turn.
    name: 'carried-conversation-by-reference',
    input: { task: 'Look up three keys', model: SCRIPTED_MODEL, continueAsNewEvery: 2 },
    turns: threeLookups('c'),
  },
  {
    // The result names the long observation its history holds instead of repeating it.
    name: 'result-observations-by-reference',
    input: { task: 'Read a big result', model: SCRIPTED_MODEL, maxToolResultChars: 6_000 },
    turns: [
      { content: [useTool('big_result', {}, 'toolu_r1'), useTool('lookup', { key: 'r' }, 'toolu_r2')] },
      { content: [useTool('finish', { result: 'read it' }, 'toolu_r3')] },
    ],
  },
  {
    // The same handover, its archive recorded once as a local activity's marker (keepChainArchive).
    name: 'archive-in-marker',
    input: {
      task: 'Look up many keys',
      model: SCRIPTED_MODEL,
      continueAsNewEvery: 52,
      maxIterations: 60,
      maxContextChars: 4_000,
    },
    turns: [
      ...Array.from({ length: 53 }, (_, i) => ({
        content: [useTool('lookup', { key: `k${i + 1}` }, `toolu_m${i + 1}`)],
      })),
      { content: [useTool('finish', { result: 'looked up' }, 'toolu_mz')] },
    ],
    fixtureRun: 'first',
  },
  {
    // A handover with more steps than it carries: the chain's tail goes on, `earlier` points back.
    name: 'long-chain-tail',
    input: {
      task: 'Look up many keys',
      model: SCRIPTED_MODEL,
      continueAsNewEvery: 52,
      maxIterations: 60,
      maxContextChars: 4_000,
    },
    turns: [
      ...Array.from({ length: 53 }, (_, i) => ({
        content: [useTool('lookup', { key: `k${i + 1}` }, `toolu_t${i + 1}`)],
      })),
      { content: [useTool('finish', { result: 'looked up' }, 'toolu_tz')] },
    ],
    fixtureRun: 'first',
  },
  {
    // Signed decisions (issue 78): a pause with its id, an instruction sent twice (the copy dropped as
    // used), and a raise signed for the pause by a verified developer; the run remembers what it accepted.
    name: 'budget-raise-signed',
    input: {
      task: 'Look up k1 with a signed raise',
      model: SCRIPTED_MODEL,
      maxIterations: 1,
      onBudget: 'ask',
      signedDecisions: { publicKeys: replaySigner.publicKeys(), required: false },
    },
    turns: [
      { content: [useTool('lookup', { key: 'k1' }, 'toolu_s1')] },
      { content: [useTool('finish', { result: 'k1 looked up' }, 'toolu_s2')] },
    ],
    interact: async (agents, id) => {
      await until(async () => (await agents.status(id)).budgetPause !== undefined);
      const steer = replaySigner.sign('steer', id, { text: 'Be brief.', nonce: 'n-replay-1' }, olgaDeveloper);
      await agents.getHandle(id).signal(steerSignal, steer);
      await agents.getHandle(id).signal(steerSignal, steer);
      await agents.raiseBudget(
        id,
        { iterations: 1, by: 'olga' },
        {
          sign: (kind, workflowId, payload) => replaySigner.sign(kind, workflowId, payload, olgaDeveloper),
        },
      );
    },
  },
  {
    name: 'approvals-decided',
    input: { task: 'Read the vault twice and alpha', model: SCRIPTED_MODEL, approvals: secretKey },
    turns: [
      {
        content: [
          useTool('lookup', { key: 'vault' }, 'toolu_p1'),
          useTool('lookup', { key: 'vault' }, 'toolu_p2'),
          useTool('lookup', { key: 'alpha' }, 'toolu_p3'),
        ],
      },
      { content: [useTool('finish', { result: 'vault=50 once, alpha=50' }, 'toolu_p4')] },
    ],
    interact: async (agents, id) => {
      await until(async () => (await agents.pendingApprovals(id)).length === 2);
      await agents.decide(id, { callId: 'toolu_p1', approved: true, by: ops });
      await agents.decide(id, { callId: 'toolu_p2', approved: false, by: ops, reason: 'once is enough' });
    },
  },
  {
    name: 'approval-timeout',
    input: { task: 'Read the vault', model: SCRIPTED_MODEL, approvals: secretKey, approvalTimeoutMs: 1_000 },
    turns: [
      { content: [useTool('lookup', { key: 'vault' }, 'toolu_t1')] },
      { content: [useTool('finish', { result: 'nobody approved' }, 'toolu_t2')] },
    ],
  },
  {
    name: 'steer-and-answer',
    input: { task: 'Ask which city, then look it up', model: SCRIPTED_MODEL, allowQuestions: true },
    turns: [
      { content: [useTool('ask_person', { question: 'Which city?' }, 'toolu_q1')] },
      { content: [useTool('lookup', { key: 'paris' }, 'toolu_q2')] },
      { content: [useTool('finish', { result: 'paris=50' }, 'toolu_q3')] },
    ],
    interact: async (agents, id) => {
      await until(async () => (await agents.status(id)).openQuestion !== undefined);
      await agents.steer(id, 'Answer in one line.', 'olga');
      await agents.answer(id, 'Paris', 'olga');
    },
  },
  {
    name: 'tenant-limited',
    input: {
      task: 'Look up alpha for a tenant',
      model: SCRIPTED_MODEL,
      caller: { id: 'u1', roles: ['analyst'], tenant: 'replay-tenant' },
    },
    tenantLimits: { tenants: { 'replay-tenant': { maxConcurrentRuns: 2, tokensPerHour: 100_000 } } },
    turns: [
      { content: [useTool('lookup', { key: 'alpha' }, 'toolu_n1')] },
      { content: [useTool('finish', { result: 'alpha=50' }, 'toolu_n2')] },
    ],
  },
  {
    // The first model call and the lookup fill the tenant's minute: the second model call waits
    // (a rate_limit note and one timer), then the run leases again and finishes.
    name: 'tenant-rate-limited',
    input: {
      task: 'Look up alpha for a rate-limited tenant',
      model: SCRIPTED_MODEL,
      caller: { id: 'u1', roles: ['analyst'], tenant: 'replay-rate-tenant' },
    },
    tenantLimits: {
      tenants: {
        'replay-rate-tenant': { tokensPerHour: 100_000, tokensPerMinute: 50_000, callsPerMinute: 2, costPerHourUsd: 5 },
      },
    },
    turns: [
      { content: [useTool('lookup', { key: 'alpha' }, 'toolu_r1')], costUsd: 0.01 },
      { content: [useTool('finish', { result: 'alpha=50' }, 'toolu_r2')], costUsd: 0.01 },
    ],
  },
  {
    // Two lookups and a sub-agent in one turn: the concurrent path, a child workflow, the roll-up.
    name: 'parallel-and-sub-agent',
    input: {
      task: 'Look up alpha and beta, and have the researcher check gamma',
      model: SCRIPTED_MODEL,
      agents: { researcher: { description: 'Checks one key', tools: ['lookup'], limits: { maxIterations: 3 } } },
      tokenBudget: 50_000,
    },
    turns: [
      {
        content: [
          useTool('lookup', { key: 'alpha' }, 'toolu_p1'),
          useTool('lookup', { key: 'beta' }, 'toolu_p2'),
          useTool('researcher', { task: 'Check gamma' }, 'toolu_p3'),
        ],
      },
      // The child's one turn: the parent waits for it, so the script stays in order.
      { content: [useTool('finish', { result: 'gamma checked' }, 'toolu_c1')] },
      { content: [useTool('finish', { result: 'alpha=50 beta=40 gamma checked' }, 'toolu_p4')] },
    ],
  },
  {
    // Two branches as child runs, then the judge's call and the answer (AgentInput.branching).
    name: 'explored-branches',
    input: { task: 'Find alpha two ways', model: SCRIPTED_MODEL, tokenBudget: 50_000, branching: {} },
    turns: [
      {
        content: [
          useTool(
            'explore_branches',
            {
              approaches: [
                { label: 'lookup', instructions: 'Look alpha up.' },
                { label: 'recall', instructions: 'Recall alpha.' },
              ],
            },
            'toolu_b1',
          ),
        ],
      },
      // Each branch's one turn, alike, so the script stays in order whichever asks first.
      { content: [useTool('finish', { result: 'alpha=50' }, 'toolu_bc')] },
      { content: [useTool('finish', { result: 'alpha=50' }, 'toolu_bc')] },
      { content: [say('{"winner": 1, "reason": "the same answer; the first goes on"}')] },
      { content: [useTool('finish', { result: 'alpha=50' }, 'toolu_b2')] },
    ],
  },
  {
    name: 'planned-with-reflection',
    input: { task: 'Look up alpha, then report', model: SCRIPTED_MODEL, planning: { reflectEvery: 2 } },
    turns: [
      {
        content: [
          say(
            '{"tasks":[{"id":"t1","description":"Look up alpha","dependencies":[]},{"id":"t2","description":"Report","dependencies":["t1"]}]}',
          ),
        ],
      },
      {
        content: [
          useTool('update_task', { task_id: 't2', status: 'completed' }, 'toolu_u0'),
          useTool('lookup', { key: 'alpha' }, 'toolu_l1'),
        ],
      },
      // Reflections at iterations 2 and 4: calls without tools, before that iteration's turn.
      { content: [say('Alpha is known; the report is next.')] },
      { content: [useTool('update_task', { task_id: 't1', status: 'completed' }, 'toolu_u1')] },
      { content: [useTool('update_task', { task_id: 't2', status: 'completed' }, 'toolu_u2')] },
      { content: [say('Every task is done; finishing.')] },
      { content: [useTool('finish', { result: 'alpha=50' }, 'toolu_u3')] },
    ],
  },
  {
    // Two tasks ready: the model picks the second in its own turn (update_task in_progress with a
    // note), so the task_choice step says chosenBy 'model'; the first then starts by plan order.
    name: 'planned-model-task-choice',
    input: { task: 'Is the part in stock, and at what price?', model: SCRIPTED_MODEL, planning: { reflectEvery: 0 } },
    turns: [
      {
        content: [
          say(
            JSON.stringify({
              tasks: [
                { id: 't1', description: 'Look up the prices', dependencies: [], estimated_complexity: 'low' },
                { id: 't2', description: 'Look up the stock', dependencies: [], estimated_complexity: 'low' },
                { id: 't3', description: 'Answer from both', dependencies: ['t1', 't2'], estimated_complexity: 'low' },
              ],
            }),
          ),
        ],
      },
      {
        content: [
          say('Stock first.'),
          useTool(
            'update_task',
            { task_id: 't2', status: 'in_progress', note: 'The stock decides whether the prices matter at all.' },
            'toolu_m1',
          ),
        ],
      },
      { content: [useTool('update_task', { task_id: 't2', status: 'completed', note: 'in stock' }, 'toolu_m2')] },
      { content: [useTool('update_task', { task_id: 't1', status: 'completed', note: '4 EUR' }, 'toolu_m3')] },
      { content: [useTool('update_task', { task_id: 't3', status: 'completed' }, 'toolu_m4')] },
      { content: [useTool('finish', { result: 'in stock, 4 EUR' }, 'toolu_m5')] },
    ],
  },
  {
    // A parent cancelled while its sub-agent runs a slow tool: the cancel is forwarded to the child,
    // both grace periods pass, the child's tool is cancelled and both end `cancelled`.
    name: 'cancelled-parent-with-child',
    input: {
      task: 'Have the worker run the job',
      model: SCRIPTED_MODEL,
      cancelGraceMs: 300,
      agents: { worker: { description: 'Runs the job', tools: ['slow_job'] } },
    },
    turns: [
      { content: [useTool('worker', { task: 'Run the job' }, 'toolu_k1')] },
      { content: [useTool('slow_job', {}, 'toolu_k2')] },
    ],
    extraTools: () => [slowTool([])],
    interact: async (agents, id) => {
      await until(async () => (await agents.status(id)).subAgents.some((run) => run.status === 'running'));
      await until(async () => {
        const [child] = (await agents.status(id)).subAgents;
        return child !== undefined && (await agents.status(child.workflowId)).lastStep?.endsWith('tool_call') === true;
      });
      await agents.getHandle(id).signal(cancelSignal, { reason: 'the job is no longer needed', by: 'olga' });
    },
  },
  {
    // A tool failing every attempt (its result carries attempts and time), then a call
    // still waiting for approval when the run is cancelled (recorded as never run).
    name: 'failed-tool-then-cancelled-approval',
    input: {
      task: 'Try the database, then read the vault',
      model: SCRIPTED_MODEL,
      approvals: secretKey,
      cancelGraceMs: 100,
    },
    turns: [
      { content: [useTool('always_fails', {}, 'toolu_f1')] },
      { content: [useTool('lookup', { key: 'vault' }, 'toolu_f2')] },
    ],
    interact: async (agents, id) => {
      await until(async () => (await agents.pendingApprovals(id)).length === 1);
      await agents.getHandle(id).signal(cancelSignal, { reason: 'no longer needed', by: 'olga' });
    },
  },
  {
    // Turns with no tenant lease, task update or approval to wait for skip those awaits:
    // two lookups at once, then a slow tool that a cancel interrupts.
    name: 'skip-idle-awaits',
    input: { task: 'Look up alpha and beta, then run the job', model: SCRIPTED_MODEL, cancelGraceMs: 100 },
    turns: [
      { content: [useTool('lookup', { key: 'alpha' }, 'toolu_i1'), useTool('lookup', { key: 'beta' }, 'toolu_i2')] },
      { content: [useTool('slow_job', {}, 'toolu_i3')] },
    ],
    extraTools: () => [slowTool([])],
    interact: cancelInSecondIteration,
  },
  {
    // Iterations await their activities with fewer layers: a reply cut at max_tokens is
    // retried within the turn, a paused turn goes on, then a cancel interrupts a slow tool.
    name: 'flat-awaits',
    input: { task: 'Look up alpha, then run the job', model: { ...SCRIPTED_MODEL, maxTokens: 50 }, cancelGraceMs: 100 },
    turns: [
      { content: [useTool('lookup', { key: 'cut' }, 'toolu_f0')], stopReason: 'max_tokens' },
      { content: [useTool('lookup', { key: 'alpha' }, 'toolu_f1')] },
      { content: [say('Working on it…')], stopReason: 'pause_turn' },
      { content: [useTool('slow_job', {}, 'toolu_f2')] },
    ],
    extraTools: () => [slowTool([])],
    interact: cancelInSecondIteration,
  },
  {
    // Each call names the reply the call before received: the run after a handover,
    // whose first call builds on the carried conversation with its reply, then a paused turn.
    name: 'reply-by-reference',
    input: { task: 'Look up four keys', model: { ...SCRIPTED_MODEL, maxTokens: 50 }, continueAsNewEvery: 2 },
    turns: replyTurns('y'),
  },
  {
    // The same run's first Temporal run: a reply cut at max_tokens, then the handover naming the
    // conversation with the last reply.
    name: 'reply-by-reference-handover',
    input: { task: 'Look up four keys', model: { ...SCRIPTED_MODEL, maxTokens: 50 }, continueAsNewEvery: 2 },
    turns: replyTurns('h'),
    fixtureRun: 'first',
  },
  {
    // The reasoning contract: a call without a thought refused, a confidence on a thought and on
    // finish, a failed call not run again, and the scratchpad left out of what the model reads.
    name: 'thought-controls',
    input: {
      task: 'Look up alpha carefully',
      model: SCRIPTED_MODEL,
      requireThought: true,
      thoughtValidation: {},
      askConfidence: true,
      scratchpad: false,
    },
    turns: [
      { content: [useTool('lookup', { key: 'alpha' }, 'toolu_tc1')] },
      {
        content: [
          say('Alpha is the value the task asks for.\nConfidence: 0.6'),
          useTool('lookup', { key: 'alpha' }, 'toolu_tc2'),
        ],
      },
      { content: [say('The database may hold more detail about alpha.'), useTool('always_fails', {}, 'toolu_tc3')] },
      { content: [say('Asking the database again for alpha details.'), useTool('always_fails', {}, 'toolu_tc4')] },
      {
        content: [
          say('Alpha is known and the database is down.'),
          useTool('finish', { result: 'alpha is 50', confidence: 0.8 }, 'toolu_tc5'),
        ],
      },
    ],
  },
];

function replyTurns(prefix: string): ScriptedTurn[] {
  return [
    { content: [useTool('lookup', { key: 'k1' }, `toolu_${prefix}1`)] },
    { content: [useTool('lookup', { key: 'cut' }, `toolu_${prefix}0`)], stopReason: 'max_tokens' },
    { content: [useTool('lookup', { key: 'k2' }, `toolu_${prefix}2`)] },
    { content: [say('Still looking…')], stopReason: 'pause_turn' },
    { content: [useTool('lookup', { key: 'k3' }, `toolu_${prefix}3`)] },
    { content: [useTool('finish', { result: 'looked up' }, `toolu_${prefix}z`)] },
  ];
}
