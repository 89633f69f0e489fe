import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import type { ChainComparison } from '../../src/domain/compare/chain-comparison';
import { cliEnv, runCli } from '../helpers/cli-process';
import { createHarness, useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';

const env = useTestEnv();
const MODEL = { provider: 'anthropic', model: 'claude-sonnet-4-6' } as const;

describe('thoughtline diff: two real runs side by side', () => {
  it('aligns them by iteration, marks what differs, and says so in JSON too; an end user sees no cost', async () => {
    // Run A looks up abc then answers; run B looks up abc, then xyz, then answers otherwise.
    const model = createScriptedModel([
      { content: [say('Looking up abc.'), useTool('lookup', { key: 'abc' })] },
      { content: [useTool('finish', { result: 'It is 30.' })] },
      { content: [say('Looking up abc.'), useTool('lookup', { key: 'abc' })] },
      { content: [say('Checking xyz too.'), useTool('lookup', { key: 'xyz' })] },
      { content: [useTool('finish', { result: 'It is 31.' })] },
    ]);
    const h = await createHarness(env, { tools: testTools().tools, models: { anthropic: model } });
    await h.worker.runUntil(async () => {
      const a = await h.agents.start({ task: 'How much is it?', model: MODEL });
      await a.result();
      const b = await h.agents.start({ task: 'How much is it?', model: MODEL });
      await b.result();
      const cli = cliEnv({ THOUGHTLINE_TASK_QUEUE: h.taskQueue });

      const json = await runCli(['diff', a.workflowId, b.workflowId, '--json'], cli);
      expect(json.code, json.stderr).toBe(0);
      const c = JSON.parse(json.stdout) as ChainComparison;
      expect(c.a).toMatchObject({
        runId: a.workflowId,
        iterations: 2,
        answer: 'It is 30.',
        terminationReason: 'success',
      });
      expect(c.b).toMatchObject({ runId: b.workflowId, iterations: 3, answer: 'It is 31.' });
      expect(c.firstDifference).toBe(2);
      expect(c.answerDiffers).toBe(true);
      expect(c.iterations.map((i) => [i.iteration, i.differences])).toEqual([
        [1, []],
        [2, ['thought', 'calls']],
        [3, ['missing']],
      ]);
      expect(c.iterations[0]!.a!.calls).toEqual([
        { tool: 'lookup', arguments: '{"key":"abc"}', result: expect.any(String) },
      ]);

      const text = await runCli(['diff', a.workflowId, b.workflowId], cli);
      expect(text.code, text.stderr).toBe(0);
      const lines = text.stdout.split('\n');
      expect(lines[0]).toMatch(
        new RegExp(`^A: ${a.workflowId} \\(agent\\) completed · success, 2 iterations, [\\d,]+ tokens, \\$0\\.\\d{4}$`),
      );
      expect(lines[1]).toMatch(new RegExp(`^B: ${b.workflowId} \\(agent\\) completed · success, 3 iterations, `));
      expect(text.stdout).toContain('Same through iteration 1; they differ from iteration 2.');
      expect(text.stdout).toContain('= iteration 1: lookup\n');
      expect(text.stdout).toContain('≠ iteration 2: thought, calls\n');
      expect(text.stdout).toContain('  B: lookup {"key":"xyz"} → ');
      expect(text.stdout).toContain('≠ iteration 3: only in B\n  B: finish {"result":"It is 31."}');
      expect(text.stdout).toContain('≠ answer\n  A: It is 30.\n  B: It is 31.\n');

      // The end user's view: the same alignment, no tokens or cost anywhere.
      const user = await runCli(['diff', a.workflowId, b.workflowId, '--role', 'end_user'], cli);
      expect(user.code, user.stderr).toBe(0);
      expect(user.stdout).toContain('≠ iteration 2: thought, calls');
      expect(user.stdout).not.toMatch(/tokens|\$\d/);
    });
  }, 120_000);

  it('needs two run ids; help shows its examples', async () => {
    const cli = cliEnv({});
    const missing = await runCli(['diff', 'agent-1'], cli);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/two run ids/);
    const help = await runCli(['diff', '--help'], cli);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('thoughtline diff agent-1 agent-1-fork-2');
  });
});
