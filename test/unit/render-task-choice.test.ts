import { describe, expect, it } from 'vitest';
import { startDashboard, withStep } from '../../src/cli/dashboard/dashboard-state';
import { renderStep } from '../../src/cli/render/render-step';
import { viewChain } from '../../src/domain/chain/chain-view';
import type { ReasoningChain, ReasoningStep } from '../../src/domain';
import { STEP_TIME, stepOf } from '../helpers/chain-helpers';
import { viewerModule } from '../viewer/viewer-module';

// eslint-disable-next-line no-control-regex
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '').replace(/ +/g, ' ');
const choiceStep = (taskChoice: Record<string, unknown>, thought: string): ReasoningStep =>
  stepOf(3, { type: 'thinking', purpose: 'task_choice', thought, taskChoice });
const byModel = choiceStep(
  { taskId: 't2', reason: 'Stock first.', alternatives: ['t1'], chosenBy: 'model' },
  'Stock first.',
);
const refused = choiceStep(
  {
    taskId: 't1',
    reason: 't1 next, by plan order: the model chose "t3", which cannot start (task "t3" waits for t1, t2)',
    alternatives: ['t2'],
    chosenBy: 'plan_order',
    refused: { taskId: 't3', problem: 'not_ready' },
  },
  't1 next, by plan order: the model chose "t3", which cannot start (task "t3" waits for t1, t2)',
);
/** Recorded before the model chose: no `chosenBy`. */
const older = choiceStep(
  { taskId: 't1', reason: 't1 next: it depends on no other task; no other task is ready.', alternatives: [] },
  't1 next: it depends on no other task; no other task is ready.',
);

describe('the task_choice step in the views', () => {
  it("names the model's choice in the terminal and the dashboard; plan order's reason speaks for itself", () => {
    expect(plain(renderStep(byModel))).toContain("Next task t2, the model's choice: Stock first.");
    expect(plain(renderStep(refused))).toContain('Next task t1 next, by plan order: the model chose "t3"');
    expect(plain(renderStep(older))).toContain('Next task t1 next: it depends on no other task');
    expect(withStep(startDashboard('wf', 'goal', 0), byModel).note).toBe(
      "Next task t2 (the model's choice): Stock first.",
    );
  });

  it('keeps chosenBy and the refused choice through the chain view', () => {
    const chain: ReasoningChain = {
      schemaVersion: 1,
      chainId: 'wf-1',
      agentName: 'a',
      task: 'task',
      startedAt: STEP_TIME,
      status: 'thinking',
      steps: [byModel, refused],
    };
    const seen = viewChain(chain, 'developer').steps.map((s) => (s.type === 'thinking' ? s.taskChoice : undefined));
    expect(seen.map((c) => [c?.chosenBy, c?.refused?.taskId])).toEqual([
      ['model', undefined],
      ['plan_order', 't3'],
    ]);
  });

  it('titles the step in the viewer with who chose, and the refused choice', async () => {
    const f = await viewerModule<{ stepTitle(step: unknown): string }>('format.js');
    expect(f.stepTitle(byModel)).toBe("Next task · t2 (the model's choice)");
    expect(f.stepTitle(refused)).toBe("Next task · t1 (plan order; the model's choice t3 was refused)");
    expect(f.stepTitle(older)).toBe('Next task · t1 (plan order)');
  });
});
