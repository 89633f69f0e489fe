import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { AgentClient } from '../../src/client/agent-client';
import { addRunScore } from '../../src/client/runs/run-scores';
import type { EvaluationInputInit, EvaluationResult } from '../../src/domain/evaluation';
import { caseWorkflowId } from '../../src/domain/evaluation';
import type { RunScoresState } from '../../src/domain/evaluation/run-scores';
import { text, toolUse, type FakeMessagesServer } from '../../src/testing';
import { sendThreadTurn, threadWorkflowId } from '../../src/client/threads/thread-client';
import type { ThreadState } from '../../src/domain/threads/thread-schemas';
import { EVALUATION_WORKFLOW, evaluationProgressQuery } from '../../src/workflows/eval/eval-messages';
import { scoringWorkflowId } from '../../src/workflows/eval/evaluation-case-workflow';
import type { EvaluationWorkflowOptions } from '../../src/workflows/eval/evaluation-workflow';
import { runScoresWorkflowId } from '../../src/workflows/scores/run-scores-messages';
import type { runScoresWorkflow } from '../../src/workflows/scores/run-scores-workflow';
import { pollFor } from '../helpers/approval-helpers';
import { CALL_COST_USD, evaluation, variant } from '../workflows/eval/eval-harness';

/** The name the fake Messages server answers under in these recordings. */
const FAKE_MODEL = 'fake-messages-model';

const EventType = temporal.api.enums.v1.EventType;

/** What a scenario drives: a worker on `taskQueue` with evalModel as `scripted`, the fake server as `anthropic`, testTools, slow_job and the `says_twenty` scorer. */
export interface EntityRecording {
  client: Client;
  taskQueue: string;
  /** What slow_job logs: `started`, `aborted`, `finished`. */
  slowJobs: string[];
  /** Answers the judge's calls (provider `anthropic`). */
  judge: FakeMessagesServer;
}

/** One execution whose history is kept: `runId` when the workflow id has had more than one. */
export interface KeptExecution {
  workflowId: string;
  runId?: string;
}

/** Runs of the evaluation and scores workflows whose histories are kept as replay fixtures. */
export interface EntityScenario {
  name: string;
  /** The fixtures it keeps, each `${scenario}.${keep}.json`; `run` returns an execution for each. */
  keeps: readonly string[];
  /** Drives the runs to their end and names the executions to keep. Throws when a run went otherwise. */
  run: (r: EntityRecording) => Promise<Record<string, KeptExecution>>;
}

/** The fixture file name (without `.json`) of one kept execution. */
export const fixtureName = (scenario: string, keep: string) => `${scenario}.${keep}`;

/** Workflow ids are fixed: replay compares the child ids a history started with the ones the code derives. */
const evalId = (scenario: string) => `replay-entity-${scenario}`;

async function runEvaluation(
  r: EntityRecording,
  workflowId: string,
  input: EvaluationInputInit,
  options?: EvaluationWorkflowOptions,
  during?: () => Promise<void>,
): Promise<EvaluationResult> {
  const handle = await r.client.workflow.start(EVALUATION_WORKFLOW, {
    taskQueue: r.taskQueue,
    workflowId,
    args: options ? [input, options] : [input],
  });
  await during?.();
  return (await handle.result()) as EvaluationResult;
}

/** The recording is only worth keeping when the run took the path the scenario names. */
function expectThat(holds: boolean, what: string): void {
  if (!holds) throw new Error(`the recorded run did not go as the scenario says: ${what}`);
}

/** An ended agent run with a fixed id, for scores to attach to. */
async function endedRun(r: EntityRecording, workflowId: string): Promise<string> {
  const agents = new AgentClient({ client: r.client, taskQueue: r.taskQueue });
  const handle = await agents.start(
    { task: 'answer directly', model: { provider: 'scripted', model: 'scripted-model' }, requireThought: false },
    { workflowId },
  );
  await handle.result();
  return workflowId;
}

/** The scores execution's final state, once it has closed for idleness. */
async function closedScores(r: EntityRecording, run: string, runId?: string): Promise<RunScoresState> {
  return r.client.workflow.getHandle<typeof runScoresWorkflow>(runScoresWorkflowId(run), runId).result();
}

const IDLE_MS = 1_500;

export const ENTITY_SCENARIOS: EntityScenario[] = [
  {
    // 2 cases × 2 variants, two at a time; one case's agent input is refused (a failed result);
    // the case workflows run a worker scorer and the judge (the fake Anthropic server).
    name: 'evaluation',
    keeps: ['evaluation', 'case'],
    async run(r) {
      const workflowId = evalId('evaluation');
      // The fake server answers as a stand-in of its own name: no made-up usage under a real model's.
      r.judge.append([
        text('{"score": 1, "why": "Coherent."}', { model: FAKE_MODEL }),
        text('{"score": 0.2, "why": "Thin."}', { model: FAKE_MODEL }),
      ]);
      const result = await runEvaluation(
        r,
        workflowId,
        evaluation({
          cases: [
            { id: 'lookup-alpha', task: 'lookup alpha', scorers: ['says_twenty'] },
            { id: 'broken-input', task: 'never runs', input: { maxIterations: 0 } },
          ],
          variants: [variant('a'), variant('b')],
          concurrency: 2,
          judge: { model: { provider: 'anthropic', model: 'claude-sonnet-4-6', maximumAttempts: 1 } },
        }),
      );
      r.judge.verify();
      expectThat(result.status === 'completed', 'the evaluation completes');
      expectThat(
        result.results.map((x) => x.status).join() === 'scored,scored,failed,failed',
        'the lookup case is scored, the broken one fails, in both variants',
      );
      const scored = result.results[0]!;
      expectThat(
        scored.scores.map((s) => s.scorer).join() === 'termination_accuracy,coherence,says_twenty,judge',
        'the built-in, worker and judge scorers all score',
      );
      return {
        evaluation: { workflowId },
        case: { workflowId: scoringWorkflowId(caseWorkflowId(workflowId, { id: 'lookup-alpha' }, 'a', 0)) },
      };
    },
  },
  {
    // Past the (internal) shard size the evaluation runs its units in shard child workflows.
    name: 'sharded-evaluation',
    keeps: ['evaluation', 'shard'],
    async run(r) {
      const workflowId = evalId('sharded-evaluation');
      const result = await runEvaluation(
        r,
        workflowId,
        evaluation({
          cases: ['c1', 'c2', 'c3'].map((id) => ({ id, task: `answer ${id}` })),
          variants: [variant('a')],
          concurrency: 2,
          budget: { costUsd: 1 },
        }),
        { shardSize: 2 },
      );
      expectThat(result.status === 'completed', 'the evaluation completes');
      expectThat(
        result.results.every((x) => x.status === 'scored'),
        'every unit is scored',
      );
      return { evaluation: { workflowId }, shard: { workflowId: `${workflowId}/shard-1` } };
    },
  },
  {
    // Cancelled with two slow units running: they are cancelled and reported, the last is skipped.
    name: 'cancelled-evaluation',
    keeps: ['evaluation'],
    async run(r) {
      const workflowId = evalId('cancelled-evaluation');
      const result = await runEvaluation(
        r,
        workflowId,
        evaluation({
          cases: [
            { id: 'quick-a', task: 'answer a' },
            { id: 'slow-b', task: 'slow b' },
            { id: 'slow-c', task: 'slow c' },
            { id: 'quick-d', task: 'answer d' },
          ],
          variants: [variant('a')],
          concurrency: 2,
        }),
        undefined,
        async () => {
          const handle = r.client.workflow.getHandle(workflowId);
          await pollFor(
            'both slow jobs to start',
            () => (r.slowJobs.filter((e) => e === 'started').length === 2 ? true : undefined),
            60_000,
          );
          await pollFor(
            'the quick unit to be done',
            async () => ((await handle.query(evaluationProgressQuery)).done === 1 ? true : undefined),
            60_000,
          );
          await handle.cancel();
        },
      );
      expectThat(result.status === 'cancelled', 'the evaluation is cancelled');
      expectThat(
        result.results.map((x) => x.status).join() === 'scored,failed,failed,skipped',
        'the quick unit scored, the slow ones cancelled, the last skipped',
      );
      return { evaluation: { workflowId } };
    },
  },
  {
    // The budget covers two calls: two units run, each granted what is left, the rest are skipped.
    name: 'budget-spent-evaluation',
    keeps: ['evaluation'],
    async run(r) {
      const workflowId = evalId('budget-spent-evaluation');
      const result = await runEvaluation(
        r,
        workflowId,
        evaluation({
          cases: ['one', 'two', 'three'].map((id) => ({ id, task: `answer ${id}` })),
          variants: [variant('a')],
          concurrency: 1,
          budget: { costUsd: 2 * CALL_COST_USD },
        }),
      );
      expectThat(result.status === 'budget_spent', 'the evaluation stops on its budget');
      expectThat(result.results.map((x) => x.status).join() === 'scored,scored,skipped', 'two run, one skipped');
      return { evaluation: { workflowId } };
    },
  },
  {
    // Update-with-start, a replacing score (same name and person), an added one; then the idle close.
    name: 'scores-added',
    keeps: ['scores'],
    async run(r) {
      const run = await endedRun(r, 'replay-entity-scored-run');
      const options = { taskQueue: r.taskQueue, idleMs: IDLE_MS };
      await addRunScore(r.client, run, { name: 'accepted', value: true, by: 'alice' }, options);
      const replaced = await addRunScore(r.client, run, { name: 'accepted', value: false, by: 'alice' }, options);
      await addRunScore(r.client, run, { name: 'csat', value: 4.5, comment: 'quick', by: 'bob' }, options);
      expectThat(replaced.replaced !== undefined, 'the second score replaces the first');
      const state = await closedScores(r, run);
      expectThat(state.scores.map((s) => s.name).join() === 'accepted,csat', 'two scores are kept');
      return { scores: { workflowId: runScoresWorkflowId(run) } };
    },
  },
  {
    // A malformed update is refused by the validator: nothing of it reaches the history.
    name: 'scores-refused',
    keeps: ['scores'],
    async run(r) {
      const run = await endedRun(r, 'replay-entity-refused-run');
      const options = { taskQueue: r.taskQueue, idleMs: IDLE_MS };
      await addRunScore(r.client, run, { name: 'accepted', value: 1, by: 'alice' }, options);
      const handle = r.client.workflow.getHandle(runScoresWorkflowId(run));
      const refused = await handle
        .executeUpdate('addRunScore', { args: [{ name: 'not ok', value: '1' }] })
        .then(() => false)
        .catch(() => true);
      expectThat(refused, 'the malformed score is refused');
      const state = await closedScores(r, run);
      expectThat(state.scores.length === 1, 'only the good score is kept');
      const events = (await handle.fetchHistory()).events ?? [];
      expectThat(
        events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED).length === 1 &&
          !events.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_REJECTED),
        'the refused update left nothing in the history',
      );
      return { scores: { workflowId: runScoresWorkflowId(run) } };
    },
  },
  {
    // Closes after its idle time returning the scores; a later score starts it again carrying them.
    name: 'scores-idle-reopen',
    keeps: ['closed', 'reopened'],
    async run(r) {
      const run = await endedRun(r, 'replay-entity-reopened-run');
      const id = runScoresWorkflowId(run);
      const options = { taskQueue: r.taskQueue, idleMs: IDLE_MS };
      await addRunScore(r.client, run, { name: 'accepted', value: 1, by: 'alice' }, options);
      const first = await r.client.workflow.getHandle(id).describe();
      await closedScores(r, run, first.runId);
      const reopened = await addRunScore(r.client, run, { name: 'ticket.reopened', value: 1, by: 'bot' }, options);
      expectThat(reopened.count === 2, 'the reopened scores carry the first');
      const second = await r.client.workflow.getHandle(id).describe();
      expectThat(second.runId !== first.runId, 'a new execution holds the scores');
      await closedScores(r, run, second.runId);
      return { closed: { workflowId: id, runId: first.runId }, reopened: { workflowId: id, runId: second.runId } };
    },
  },
  {
    // A thread: two turns (each an agent run answered by the fake Anthropic server, the second
    // given the first as context), a repeated turn id and another caller's turn (both start
    // nothing), then the idle close returning the transcript.
    name: 'thread',
    keeps: ['thread'],
    async run(r) {
      const agents = new AgentClient({ client: r.client, taskQueue: r.taskQueue });
      const owner = { id: 'ada', roles: [], tenant: 'acme' };
      const start = { threadId: 'replay-thread', owner, agent: { agentName: 'agent' }, idleMs: IDLE_MS };
      const workflowId = threadWorkflowId(owner, start.threadId);
      r.judge.append([
        toolUse('finish', { result: 'Paris.' }, { text: 'Thought: I know the capital.', model: FAKE_MODEL }),
        toolUse(
          'finish',
          { result: 'About 2.1 million.' },
          { text: 'Thought: the thread says Paris.', model: FAKE_MODEL },
        ),
      ]);
      const first = await sendThreadTurn(agents, start, { turnId: 'turn-a', text: 'Capital of France?', by: owner });
      await agents.getHandle(first.runId).result();
      const repeated = await sendThreadTurn(agents, start, { turnId: 'turn-a', text: 'Capital of France?', by: owner });
      expectThat(repeated.repeated && repeated.runId === first.runId, 'the repeated turn id starts nothing');
      const refused = await sendThreadTurn(agents, start, { turnId: 'x', text: 'hi', by: { ...owner, id: 'eve' } })
        .then(() => false)
        .catch(() => true);
      expectThat(refused, "another caller's turn is refused");
      const second = await sendThreadTurn(agents, start, { turnId: 'turn-b', text: 'How many live there?', by: owner });
      expectThat(second.turn === 2, 'the second turn is turn 2');
      const state = (await r.client.workflow.getHandle(workflowId).result()) as ThreadState;
      r.judge.verify();
      expectThat(
        state.turns.map((t) => `${t.status}:${t.answer}`).join() === 'completed:Paris.,completed:About 2.1 million.',
        'both turns completed with their answers, then the thread closed idle',
      );
      return { thread: { workflowId } };
    },
  },
];
