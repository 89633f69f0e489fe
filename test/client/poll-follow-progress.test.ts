import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import type { VisibilityLevel } from '../../src/domain';
import { followElsewhere } from '../helpers/follow-elsewhere';
import { scanningTool } from '../helpers/progress-tool';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { createHarness, useTestEnv } from '../helpers/temporal-env';

/*
 * A tool's progress reaches a watcher with no server (`AgentClient.follow`, so `thoughtline run`
 * and `watch` without serve): read from the call's keep-alive heartbeats with the run's other
 * pending activities, one describe a poll; only for calls the watcher's view showed.
 */

const env = useTestEnv();
const SECRET = 'sk-live-poll-progress-0123456789';

/** Reports six updates over about 2.4 s (the worker heartbeats each second), each naming a secret. */
const scanAt = (name: string, visibility: VisibilityLevel) =>
  scanningTool(name, visibility, { secret: SECRET, updates: 6, gapMs: 400 });

describe('tool progress for a watcher without a server', () => {
  it('follows a full tool’s progress, redacted, and says nothing of a hidden one’s', async () => {
    const model = createScriptedModel([
      {
        content: [say('Scanning both.'), useTool('scan', {}, 'toolu_full'), useTool('scan_hidden', {}, 'toolu_hidden')],
      },
      { content: [useTool('finish', { result: 'scanned' })] },
    ]);
    const h = await createHarness(env, {
      tools: [scanAt('scan', 'full'), scanAt('scan_hidden', 'hidden')],
      models: { scripted: model },
      secrets: [SECRET],
    });
    const { events } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({
        task: 'Scan the files',
        model: SCRIPTED_MODEL,
        tools: ['scan', 'scan_hidden'],
      });
      return followElsewhere(env, h.taskQueue, handle.workflowId);
    });
    model.verify();
    const progress = events.flatMap((e) => (e.type === 'progress' ? [e] : []));
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.every((p) => p.toolName === 'scan')).toBe(true);
    expect(progress.map((p) => p.message)).toEqual(
      progress.map(() => expect.stringMatching(/^scan scanned \d00 files with (?!sk-live)/)),
    );
    expect(JSON.stringify(progress)).not.toContain(SECRET);
    // Each update once, in order, and after its call step.
    const seqs = progress.map((p) => p.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    const callAt = events.findIndex(
      (e) => e.type === 'step' && e.step.type === 'tool_call' && e.step.toolCall.toolName === 'scan',
    );
    expect(events.findIndex((e) => e.type === 'progress')).toBeGreaterThan(callAt);
  }, 60_000);
});
