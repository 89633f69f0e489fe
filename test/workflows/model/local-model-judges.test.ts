import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelProvider } from '../../../src/activities';
import { createLlamaCppProvider, type LlamaCppProvider } from '../../../src/activities/models/local/llama-cpp-provider';
import { ensureSmolLM2Weights } from '../../../src/activities/models/local/model-weights';
import { createScriptedModel, say, useTool, type ScriptedModel } from '../../../src/activities/models/scripted-model';
import {
  LlmConsensus,
  ModelRegistry,
  type AgentInputInit,
  type AgentResult,
  type ReasoningStep,
} from '../../../src/domain';
import { createOfflineModel, OFFLINE_MODEL_NAME } from '../../../src/offline/offline-model';
import { createLlmTool } from '../../../src/tools/builtin/llm';
import { defineTool } from '../../../src/tools/define-tool';
import { TEST_MODELS_DIR } from '../../conformance/local-model-harness';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv, type AgentHarness } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';

const env = useTestEnv();

/**
 * A model tried as each judge and as the judged model. SmolLM2-135M is the one real model the
 * project runs; the offline model (src/offline, the provider the CLI registers as `offline`) is
 * the stand-in every other figure comes from, so its outcomes are printed beside SmolLM2's.
 */
interface JudgeModel {
  /** How the printout names it: "<name> as a judge: …". */
  name: string;
  /** The model a run or a judge setting names for it; short replies keep SmolLM2's calls to seconds on a busy 2-core machine. */
  target: { provider: 'local' | 'offline'; model: string; maxTokens: number };
  /** Its registry name as the consensus judge of `askTool`, the ask-model tool whose judge it is. */
  alias: string;
  askTool: string;
}

const JUDGES: readonly JudgeModel[] = [
  {
    name: 'SmolLM2',
    target: { provider: 'local', model: 'smollm2-135m-instruct', maxTokens: 96 },
    alias: 'small',
    askTool: 'ask_model',
  },
  {
    name: 'offline model',
    target: { provider: 'offline', model: OFFLINE_MODEL_NAME, maxTokens: 96 },
    alias: 'offline',
    askTool: 'ask_model_offline',
  },
];

type Step<T extends ReasoningStep['type']> = Extract<ReasoningStep, { type: T }>;

/** The run's model calls served by `model`: the call step and its result, by correlation id. */
function callsOf(result: AgentResult, model: string): Array<{ call: Step<'tool_call'>; reply?: Step<'tool_result'> }> {
  const steps = result.chain.steps;
  return steps
    .filter((s): s is Step<'tool_call'> => s.type === 'tool_call' && s.toolCall.toolType === 'llm')
    .filter((s) => s.model === model)
    .map((call) => ({
      call,
      reply: steps.find(
        (s): s is Step<'tool_result'> =>
          s.type === 'tool_result' && s.toolResult.correlationId === call.toolCall.correlationId,
      ),
    }));
}

/**
 * A looping reply, the one failure a judge model's call may honestly end in: the local provider
 * stops a 135M model that repeats itself (repetition.ts). A judge's prompt carries the run's random
 * step ids, so the same judge can loop on one run and not the next; any other failure is a bug.
 */
const LOOPED = /^Model call failed: ModelRepeating: /;

/**
 * Exactly one call of `purpose` served by `model`, under its own name, with its reply step: answered,
 * or stopped as a looping reply. Returns the failure's text, which the judge's own step must name.
 */
function expectOneVisibleCall(result: AgentResult, model: string, purpose: string): string | undefined {
  const calls = callsOf(result, model);
  expect(calls.map((c) => c.call.toolCall.toolName)).toEqual([model]);
  const [{ call, reply }] = calls as [(typeof calls)[number]];
  expect(reply, `${purpose}: no reply step`).toBeDefined();
  expect(reply?.model ?? call.model).toBe(model);
  if (reply?.toolResult.success) return undefined;
  expect(reply?.toolResult.error, purpose).toMatch(LOOPED);
  return reply!.toolResult.error!;
}

const thoughts = (result: AgentResult, lead: string): string[] =>
  result.chain.steps.flatMap((s) => (s.type === 'thinking' && s.thought.startsWith(lead) ? [s.thought] : []));

/** Two independent tasks, and the answer after both: the turn after the plan has a choice to make. */
const PLANNED_TASKS = [
  { id: 't1', description: 'Look up the prices', dependencies: [], estimated_complexity: 'low' },
  { id: 't2', description: 'Look up the stock', dependencies: [], estimated_complexity: 'low' },
  { id: 't3', description: 'Answer from both', dependencies: ['t1', 't2'], estimated_complexity: 'low' },
];

/** Two branches' answers and a room reader: the tools and scripts the judges need something to judge. */
const readRoom = defineTool({
  name: 'read_room',
  description: 'Reads the notes on room n',
  input: z.object({ n: z.number().int() }),
  effects: 'none',
  execute: ({ n }) => `Room ${n}: the code is 7${n}7. ${'Notes about the room. '.repeat(12)}`,
});

/** The file's one Worker and what it serves: both judge models, the scripted runs and their branches' scripts. */
let local: LlamaCppProvider;
const offline = createOfflineModel();
let h: AgentHarness;
/** The one Worker, polling from the first test to the last. */
let polling: Promise<void> | undefined;
/** The scripted model of the run in progress (runs here go one at a time) and its branches' scripts. */
let lead: ScriptedModel = createScriptedModel([]);
let branches: Record<string, ScriptedModel> = {};
const scripted: ModelProvider = {
  name: 'scripted',
  complete(request, signal, hooks) {
    const label = /Yours: \\"(.+?)\\"/.exec(JSON.stringify(request.messages))?.[1];
    const script = label === undefined ? lead : branches[label];
    if (!script) throw new Error(`no script for branch ${label}`);
    return script.complete(request, signal, hooks);
  },
};

// The task choice's run: its plan is scripted (two ready tasks), so the choice is the judge model's:
// every call after the plan goes to the model the run names (SmolLM2 or the offline model).
let plan: ScriptedModel = createScriptedModel([]);
let planCalls = 0;
const planned: ModelProvider = {
  name: 'planned',
  complete: (request, signal, hooks) =>
    (planCalls++ === 0 ? plan : request.model === OFFLINE_MODEL_NAME ? offline : local).complete(
      request,
      signal,
      hooks,
    ),
};

beforeAll(async () => {
  // One thread: see local-model-harness.ts (two spinning threads on a busy 2-core machine collapse).
  local = createLlamaCppProvider({ modelPath: await ensureSmolLM2Weights({ dir: TEST_MODELS_DIR }), threads: 1 });
  const registry = ModelRegistry.parse({
    models: {
      a: { provider: 'prov-a', model: 'a-1' },
      b: { provider: 'prov-b', model: 'b-1' },
      ...Object.fromEntries(JUDGES.map((j) => [j.alias, j.target])),
    },
  });
  // One ask-model tool per judge model, each with that model as its consensus judge; the runs ask the two same models.
  const askTools = JUDGES.map((j) =>
    createLlmTool({
      name: j.askTool,
      registry,
      providers: {
        'prov-a': createScriptedModel([{ content: [say('Paris is the capital of France.')] }]),
        'prov-b': createScriptedModel([{ content: [say('The capital city is Lyon.')] }]),
        local,
        offline,
      },
      models: ['a', 'b'],
      maxTokens: j.target.maxTokens,
      consensusJudge: j.alias,
    }),
  );
  h = await createHarness(env, {
    tools: [...testTools().tools, ...askTools, readRoom],
    models: { scripted, local, offline, planned },
  });
  polling = h.worker.run();
}, 300_000);
afterAll(async () => {
  h?.worker.shutdown();
  await polling;
  await local?.dispose();
});

const run = async (input: Partial<AgentInputInit> & { task: string }): Promise<AgentResult> =>
  (await h.agents.start({ model: SCRIPTED_MODEL, ...input })).result();

/**
 * Issue 79: SmolLM2-135M (the embedded local model, the only real model the project runs) and the
 * offline model, each as the judged model of grounding cases and as each judge: the claim judge,
 * the branch judge, the consensus judge, the compaction summary and the task choice, one call
 * each, through real runs on the suite's dev server. The run's own turns are scripted where the
 * judge is the subject, so what the judge model decides is the only thing not fixed. Each call
 * must be a visible `llm` step under the judge model's name, its reply read or refused through the
 * judge's own "unreadable" path, or its call stopped as a looping reply and named on the judge's
 * step (never a crash, never silently taken), and the run must end.
 */
describe.each(JUDGES)('$name through the judges', (judge) => {
  const { target } = judge;
  /** What each judge made of this model's reply, printed for docs/evaluation.md's "Judges on a real model". */
  const outcomes: string[] = [];
  afterAll(() => {
    console.error(`${judge.name} as a judge:\n${outcomes.join('\n')}`);
  });

  it('is the claim judge (grounding.judge): one visible call, its reply read, refused as unreadable, or stopped as looping', async () => {
    lead = createScriptedModel([
      { content: [useTool('lookup', { key: 'alpha' }, 'toolu_a')] },
      { content: [useTool('finish', { result: 'alpha is 50, so twice alpha is 100 and beta is 40 km.' })] },
    ]);
    const result = await run({ task: 'Find alpha, twice alpha and beta.', grounding: { judge: target } });
    lead.verify();
    const failure = expectOneVisibleCall(result, target.model, 'claim judge');
    const [verdict] = thoughts(result, 'Claim judge');
    expect(verdict).toBeDefined();
    // A stopped call keeps the rules' judgement, and the judge's step names why.
    if (failure !== undefined) expect(verdict).toContain(`unavailable (${failure}); the rules' judgement stands.`);
    outcomes.push(`claim judge: ${verdict}`);
    expect(result.terminationReason).toBe('success');
    expect(result.grounding).toBeDefined();
  }, 120_000);

  it('is the branch judge: one visible call picks a finished branch, or the fallback says the reply was unreadable', async () => {
    lead = createScriptedModel([
      {
        content: [
          useTool(
            'explore_branches',
            {
              approaches: [
                { label: 'archive', instructions: 'Answer from the archive.' },
                { label: 'index', instructions: 'Answer from the index.' },
              ],
              criteria: 'Prefer the answer that names the capital.',
            },
            'call_branch',
          ),
        ],
      },
      { content: [useTool('finish', { result: 'Paris.' })] },
    ]);
    branches = {
      archive: createScriptedModel([{ content: [useTool('finish', { result: 'The archive does not say.' })] }]),
      index: createScriptedModel([{ content: [useTool('finish', { result: 'Paris is the capital of France.' })] }]),
    };
    const result = await run({
      task: 'What is the capital of France?',
      agentName: 'geo',
      tokenBudget: 90_000,
      branching: { judge: target },
    });
    for (const script of [lead, ...Object.values(branches)]) script.verify();
    const failure = expectOneVisibleCall(result, target.model, 'branch judge');
    const winners = (result.chain.subAgents ?? []).filter((r) => r.branch?.winner);
    expect(winners).toHaveLength(1);
    const observation = result.chain.steps.find(
      (s): s is Step<'tool_result'> => s.type === 'tool_result' && s.toolResult.correlationId === 'call_branch',
    );
    const said = JSON.stringify(observation?.toolResult.result ?? observation?.toolResult.error);
    const note = result.chain.steps.find(
      (s): s is Step<'thinking'> => s.type === 'thinking' && s.purpose === 'branch_choice',
    )?.thought;
    // Read (the note names the judge's pick, under its model's name) or refused, the fallback naming
    // why: never a winner with no reason.
    const read = note?.includes(`(the judge's pick, ${target.model})`) === true;
    if (!read) expect(note).toMatch(/the judge.*; the first finished branch in order goes on/);
    if (failure !== undefined) expect(note).toContain(`the judge was unavailable (${failure})`);
    outcomes.push(
      `branch judge: winner ${winners[0]!.branch!.label} by ${read ? 'the judge' : 'the fallback'}; ${said.slice(0, 300)}`,
    );
    expect(result.terminationReason).toBe('success');
  }, 120_000);

  it('is the consensus judge: one visible call groups the answers, or its problem is recorded and the rules stand', async () => {
    lead = createScriptedModel([
      {
        content: [
          useTool(
            judge.askTool,
            { models: ['a', 'b'], mode: 'consensus', prompt: 'What is the capital of France?' },
            'toolu_vote',
          ),
        ],
      },
      { content: [useTool('finish', { result: 'The models disagree.' })] },
    ]);
    const result = await run({ task: 'Ask two models for the capital of France.' });
    lead.verify();
    // The judge's call is its own llm step pair after the tool's, under the judge model's name.
    const judged = result.chain.steps.find(
      (s): s is Step<'tool_result'> =>
        s.type === 'tool_result' && s.toolResult.correlationId === `toolu_vote/judge/${judge.alias}`,
    );
    expect(judged?.model).toBe(target.model);
    const vote = result.chain.steps.find(
      (s): s is Step<'tool_result'> => s.type === 'tool_result' && s.toolResult.correlationId === 'toolu_vote',
    );
    // The observation as the chain keeps it (the judge's own reply is on its step above).
    const consensus = LlmConsensus.pick({ agreement: true, groups: true, groupedBy: true, judgeProblem: true }).parse(
      vote?.toolResult.result,
    );
    // Read (its groups are the judge's) or refused with the reason (the rules' two text groups stand).
    if (consensus.judgeProblem === undefined) expect(consensus.groupedBy).toContain('judge');
    else expect(consensus.groupedBy).toEqual(['text', 'text']);
    outcomes.push(
      `consensus judge: ${judged?.toolResult.error?.slice(0, 160) ?? 'answered'}; ${consensus.judgeProblem ?? `grouped ${JSON.stringify(consensus.groups)} (agreement ${consensus.agreement})`}`,
    );
    expect(result.terminationReason).toBe('success');
  }, 120_000);

  it('writes the compaction summary: visible calls, each a summary or the note that turns were removed', async () => {
    const reads = 6;
    lead = createScriptedModel(
      Array.from({ length: reads + 1 }, (_, i) => ({
        content:
          i < reads
            ? [say(`Reading room ${i + 1} next. ${'Thinking. '.repeat(25)}`), useTool('read_room', { n: i + 1 })]
            : [useTool('finish', { result: 'All codes read.' })],
      })),
    );
    const result = await run({
      task: 'Collect the code of every room',
      tools: ['read_room'],
      maxIterations: reads + 3,
      maxContextChars: 4_000,
      contextSummary: { model: { provider: target.provider, model: target.model }, maxChars: 600 },
    });
    lead.verify();
    const calls = callsOf(result, target.model);
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls.every((c) => c.call.toolCall.arguments['purpose'] === 'compaction')).toBe(true);
    const notes = result.chain.steps.filter(
      (s): s is Step<'thinking'> => s.type === 'thinking' && s.purpose === 'compaction',
    );
    expect(notes).toHaveLength(calls.length);
    for (const note of notes) outcomes.push(`compaction summary: ${note.thought.slice(0, 200)}`);
    expect(result.terminationReason).toBe('success');
  }, 120_000);

  it('chooses the next task in its own turn (task choice): the choice is taken, refused or left to plan order, never lost', async () => {
    plan = createScriptedModel([{ content: [say(JSON.stringify({ tasks: PLANNED_TASKS }))] }]);
    planCalls = 0;
    const result = await run({
      task: 'Is the part in stock, and at what price? Use lookup.',
      model: { provider: 'planned', model: target.model, maxTokens: target.maxTokens },
      tools: ['lookup'],
      maxIterations: 1,
      planning: { reflectEvery: 0 },
    });
    plan.verify();
    const turns = result.chain.steps.filter(
      (s): s is Step<'tool_call'> =>
        s.type === 'tool_call' && s.toolCall.toolType === 'llm' && s.toolCall.arguments['purpose'] === 'turn',
    );
    expect(turns.length).toBeGreaterThanOrEqual(1);
    const choices = result.chain.steps.flatMap((s) => (s.type === 'thinking' && s.taskChoice ? [s.taskChoice] : []));
    // The choice is read from the turn's reply: a turn stopped as a looping reply made none, and says so.
    const stopped = result.chain.steps.filter(
      (s): s is Step<'tool_result'> => s.type === 'tool_result' && LOOPED.test(s.toolResult.error ?? ''),
    );
    if (choices.length === 0) expect(stopped.map((s) => s.model)).toEqual([target.model]);
    for (const c of choices) expect(['model', 'plan_order']).toContain(c.chosenBy);
    outcomes.push(
      `task choice: ${choices.map((c) => `${c.taskId} by ${c.chosenBy}${c.refused ? ` (refused ${c.refused.taskId}: ${c.refused.problem})` : ''}`).join(', ') || `none, the turn stopped (${stopped[0]?.toolResult.error?.slice(0, 120)})`}; ended ${result.terminationReason}`,
    );
    expect(result.terminationReason).toBeDefined();
  }, 120_000);

  it('is the judged model: its answers to grounding cases get a grounding label, whatever it wrote', async () => {
    for (const key of ['alpha', 'omega']) {
      const result = await run({
        task: `Look up the value for the key "${key}" with the lookup tool, then answer with that value.`,
        model: target,
        tools: ['lookup'],
        maxIterations: 2,
      });
      const own = result.chain.steps.filter((s) => s.type === 'tool_call' && s.toolCall.toolType === 'llm');
      expect(own.length).toBeGreaterThanOrEqual(1);
      expect(own.every((s) => s.type === 'tool_call' && s.model === target.model)).toBe(true);
      // An answer is labelled by what stands behind it; a run that did not answer has none to label.
      if (result.success) expect(result.grounding).toBeDefined();
      outcomes.push(
        `judged (${key}): ended ${result.terminationReason}, grounding ${result.grounding ?? 'none'}, answer ${JSON.stringify(result.finalAnswer.slice(0, 120))}`,
      );
    }
  }, 150_000);
});
