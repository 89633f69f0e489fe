import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/cli-process';
import { installQuietReplayRuntime, replayEach, replaySinks, suiteReplayOptions } from '../helpers/replay-runtime';
import { REPLAY_SCENARIOS } from './scenarios';

const FIXTURES = path.join(__dirname, 'fixtures');
const fixtures = () =>
  fs
    .readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({
      // The id the recorder gave the run: child workflow ids derive from it, and replay compares them.
      workflowId: `replay-${path.basename(f, '.json')}`,
      history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(FIXTURES, f), 'utf8'))),
    }));

const replayAll = (options: Parameters<typeof replayEach>[0]) => replayEach(options, fixtures());

// The negative controls make the core log each determinism violation at WARN; expected here.
beforeAll(installQuietReplayRuntime);

describe('replay of recorded histories', () => {
  it('has a fixture for every scenario', () => {
    expect(
      fixtures()
        .map((f) => f.workflowId)
        .sort(),
    ).toEqual(REPLAY_SCENARIOS.map((s) => `replay-${s.name}`).sort());
  });

  it('replays every fixture against the current workflow code without a determinism error', async () => {
    const results = await replayAll(suiteReplayOptions());
    expect(results).toHaveLength(REPLAY_SCENARIOS.length);
    for (const r of results) expect(r.error, `${r.workflowId}: ${String(r.error)}`).toBeUndefined();
  });

  it('fails replay when the workflow changes what it schedules (negative control)', async () => {
    // A variant that skips describeTools and calls the model first: the histories must reject it.
    const dir = fs.mkdtempSync(path.join(PROJECT_ROOT, '.thoughtline/tmp/changed-wf-'));
    fs.writeFileSync(
      path.join(dir, 'index.ts'),
      `import { proxyActivities } from '@temporalio/workflow';
const { callModel } = proxyActivities<Record<string, (...a: unknown[]) => Promise<unknown>>>({ startToCloseTimeout: '1 minute' });
export async function agentWorkflow(input: unknown): Promise<unknown> { return callModel(input); }
`,
    );
    try {
      const results = await replayAll({ workflowsPath: path.join(dir, 'index.ts'), sinks: replaySinks() });
      expect(results).toHaveLength(REPLAY_SCENARIOS.length);
      for (const r of results) expect(r.error?.name, r.workflowId).toBe('DeterminismViolationError');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
