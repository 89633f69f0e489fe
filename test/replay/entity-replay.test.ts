import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { bundleWorkflowCode, DefaultLogger, Worker, type ReplayResult } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOW_BUNDLER_OPTIONS, WORKFLOWS_PATH } from '../../src/worker';
import { PROJECT_ROOT } from '../helpers/cli-process';
import { installQuietReplayRuntime, replayEach, replaySinks, suiteReplayOptions } from '../helpers/replay-runtime';
import { ENTITY_SCENARIOS, fixtureName } from './entity-scenarios';

// Recorded histories of the evaluation, scores and thread workflows (entity-fixtures.recorder.ts), replayed
// against the workflow code of today: a change that would break their open runs fails here.
const FIXTURES = path.join(__dirname, 'entity-fixtures');
const fixtureFiles = () => fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.json'));
const fixtures = () =>
  fixtureFiles().map((f) => {
    const { workflowId, history } = JSON.parse(fs.readFileSync(path.join(FIXTURES, f), 'utf8')) as {
      workflowId: string;
      history: unknown;
    };
    return { workflowId, history: historyFromJSON(history) };
  });
const expectedFixtures = ENTITY_SCENARIOS.flatMap((s) => s.keeps.map((k) => `${fixtureName(s.name, k)}.json`));

const replayAll = (options: Parameters<typeof replayEach>[0]) => replayEach(options, fixtures());

/** The workflow type a fixture's history started. */
const workflowType = (f: ReturnType<typeof fixtures>[number]) =>
  f.history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;

// The negative controls make the core log each determinism violation at WARN; expected here.
beforeAll(installQuietReplayRuntime);

describe('replay of recorded evaluation and scores histories', () => {
  it('has a fixture for every execution each scenario keeps, and no other', () => {
    expect(fixtureFiles().sort()).toEqual([...expectedFixtures].sort());
  });

  it('covers every new workflow type', () => {
    expect(new Set(fixtures().map(workflowType))).toEqual(
      new Set([
        'evaluationWorkflow',
        'evaluationShardWorkflow',
        'evaluationCaseWorkflow',
        'runScoresWorkflow',
        'threadWorkflow',
      ]),
    );
  });

  it('replays every fixture against the current workflow code without a determinism error', async () => {
    const results = await replayAll(suiteReplayOptions());
    expect(results).toHaveLength(expectedFixtures.length);
    for (const r of results) expect(r.error, `${r.workflowId}: ${String(r.error)}`).toBeUndefined();
  });

  it('keeps the id each history ran under: an evaluation replayed under another id derives other child ids and fails', async () => {
    const evaluations = fixtures().filter((f) => workflowType(f) === 'evaluationWorkflow');
    expect(evaluations.length).toBeGreaterThan(0);
    const renamed = evaluations.map((f) => ({ ...f, workflowId: `${f.workflowId}-renamed` }));
    const results: ReplayResult[] = [];
    for await (const r of Worker.runReplayHistories(suiteReplayOptions(), renamed)) results.push(r);
    expect(results.map((r) => r.error?.name)).toEqual(evaluations.map(() => 'DeterminismViolationError'));
  });

  it('fails replay of the case history alone when only the case workflow schedules its scoring before the agent run (negative control)', async () => {
    // The real workflows, but for a case workflow that asks for its scores before it starts the
    // agent run: the case history must reject it, and the histories of its parents still replay.
    const dir = fs.mkdtempSync(path.join(PROJECT_ROOT, '.thoughtline/tmp/changed-case-wf-'));
    const entry = path.join(dir, 'index.ts');
    fs.writeFileSync(
      entry,
      `import { proxyActivities } from '@temporalio/workflow';
export { agentWorkflow, tenantQuotaWorkflow, evaluationWorkflow, evaluationShardWorkflow, runScoresWorkflow, threadWorkflow } from ${JSON.stringify(WORKFLOWS_PATH)};
const { scoreRun } = proxyActivities<Record<string, (...a: unknown[]) => Promise<unknown>>>({ startToCloseTimeout: '1 minute' });
export async function evaluationCaseWorkflow(input: unknown): Promise<unknown> { return scoreRun(input); }
`,
    );
    try {
      const { code } = await bundleWorkflowCode({
        workflowsPath: entry,
        ...WORKFLOW_BUNDLER_OPTIONS,
        logger: new DefaultLogger('ERROR'),
      });
      const results = await replayAll({ workflowBundle: { code }, sinks: replaySinks() });
      const cases = new Set(
        fixtures().flatMap((f) => (workflowType(f) === 'evaluationCaseWorkflow' ? [f.workflowId] : [])),
      );
      expect(cases.size).toBeGreaterThan(0);
      expect(results).toHaveLength(expectedFixtures.length);
      for (const r of results)
        if (cases.has(r.workflowId)) expect(r.error?.name, r.workflowId).toBe('DeterminismViolationError');
        else expect(r.error, `${r.workflowId}: ${String(r.error)}`).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('fails replay when the workflows change what they schedule first (negative control)', async () => {
    // Variants that call an activity before anything else: every history must reject them.
    const dir = fs.mkdtempSync(path.join(PROJECT_ROOT, '.thoughtline/tmp/changed-entity-wf-'));
    fs.writeFileSync(
      path.join(dir, 'index.ts'),
      `import { proxyActivities } from '@temporalio/workflow';
const { callModel } = proxyActivities<Record<string, (...a: unknown[]) => Promise<unknown>>>({ startToCloseTimeout: '1 minute' });
export async function evaluationWorkflow(input: unknown): Promise<unknown> { return callModel(input); }
export async function evaluationShardWorkflow(input: unknown): Promise<unknown> { return callModel(input); }
export async function evaluationCaseWorkflow(input: unknown): Promise<unknown> { return callModel(input); }
export async function runScoresWorkflow(input: unknown): Promise<unknown> { return callModel(input); }
export async function threadWorkflow(input: unknown): Promise<unknown> { return callModel(input); }
`,
    );
    try {
      const results = await replayAll({ workflowsPath: path.join(dir, 'index.ts'), sinks: replaySinks() });
      expect(results).toHaveLength(expectedFixtures.length);
      for (const r of results) expect(r.error?.name, r.workflowId).toBe('DeterminismViolationError');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
