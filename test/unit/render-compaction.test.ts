import { describe, expect, it } from 'vitest';
import { startDashboard, withStep } from '../../src/cli/dashboard/dashboard-state';
import { renderStep } from '../../src/cli/render/render-step';
import { viewChain } from '../../src/domain/chain/chain-view';
import type { ReasoningChain, ReasoningStep } from '../../src/domain';
import { STEP_TIME, stepOf } from '../helpers/chain-helpers';
import { viewerModule } from '../viewer/viewer-module';

// eslint-disable-next-line no-control-regex
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '').replace(/ +/g, ' ');
const thought =
  'Context compacted: 3 earlier turns were summarised by claude-haiku-4-5 and the summary took their place (5000 → 2100 characters, limit 4000). The chain keeps them in full. Summary:\nRooms 1 to 3 have codes 717, 727 and 737.';
const compaction: ReasoningStep = stepOf(9, { type: 'thinking', purpose: 'compaction', thought });

describe('the compaction step in the views', () => {
  it('is labelled Compaction in the terminal, with the summary, and is the dashboard note', () => {
    const line = plain(renderStep(compaction));
    expect(line).toContain('Compaction Context compacted: 3 earlier turns were summarised by claude-haiku-4-5');
    expect(line).toContain('Rooms 1 to 3 have codes 717');
    expect(withStep(startDashboard('wf', 'goal', 0), compaction).note).toBe(thought);
  });

  it('keeps its purpose through the chain view, and the viewer titles it', async () => {
    const chain: ReasoningChain = {
      schemaVersion: 1,
      chainId: 'wf-1',
      agentName: 'a',
      task: 'task',
      startedAt: STEP_TIME,
      status: 'thinking',
      steps: [compaction],
    };
    const [seen] = viewChain(chain, 'developer').steps;
    expect(seen).toMatchObject({ purpose: 'compaction', thought });
    const { stepTitle } = await viewerModule<{ stepTitle: (step: unknown) => string }>('format.js');
    expect(stepTitle(seen)).toBe('Context compacted');
  });
});
