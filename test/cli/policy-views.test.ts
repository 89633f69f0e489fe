import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import type { ReasoningChain } from '../../src/domain';
import { cliEnv, runCli } from '../helpers/cli-process';
import { runScripted } from '../helpers/run-scripted';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();
const THOUGHT = 'Weighing the two offers before answering.';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-policy-cli-'));
const POLICY = path.join(dir, 'policy.yaml');
fs.writeFileSync(POLICY, 'version: 1\nroles:\n  end_user:\n    steps:\n      thinking: hidden\n');
const BROKEN = path.join(dir, 'broken.yaml');
fs.writeFileSync(BROKEN, 'version: 1\nroles:\n  end_user:\n    steps:\n      thinking: invisible\n');
const asNobody = cliEnv({ THOUGHTLINE_USER: 'alice', THOUGHTLINE_ROLES: '', THOUGHTLINE_STORE: '' });

const thinkingOf = (stdout: string): string[] =>
  (JSON.parse(stdout) as ReasoningChain).steps.flatMap((s) => (s.type === 'thinking' ? [s.thought] : []));

describe('--policy on the CLI (a real process against the dev server)', () => {
  it(
    'hides thinking from end users in chain and export, through --policy or THOUGHTLINE_VISIBILITY_POLICY, and not without it',
    { timeout: 120_000 },
    async () => {
      const model = createScriptedModel([
        { content: [say(THOUGHT), useTool('finish', { result: 'Take the second offer.' })] },
      ]);
      const { workflowId } = await runScripted(env, { model, tools: [], input: { task: 'Pick an offer' } });
      model.verify();

      const plain = await runCli(['chain', workflowId, '--role', 'end_user', '--json'], asNobody);
      expect(plain.code, plain.stderr).toBe(0);
      expect(thinkingOf(plain.stdout).some((t) => t.includes(THOUGHT))).toBe(true);

      const byFlag = await runCli(['chain', workflowId, '--role', 'end_user', '--json', '--policy', POLICY], asNobody);
      expect(byFlag.code, byFlag.stderr).toBe(0);
      expect(thinkingOf(byFlag.stdout)).toEqual([]);
      expect((JSON.parse(byFlag.stdout) as ReasoningChain).view).toMatchObject({ role: 'end_user' });

      const text = await runCli(['chain', workflowId, '--role', 'end_user', '--policy', POLICY], asNobody);
      expect(text.stdout).toContain(
        'view: end_user · 1 step hidden in this view · 1 narrowed by the visibility policy',
      );
      expect(text.stdout).not.toContain(THOUGHT);

      const byEnv = await runCli(['chain', workflowId, '--role', 'end_user', '--json'], {
        ...asNobody,
        THOUGHTLINE_VISIBILITY_POLICY: POLICY,
      });
      expect(byEnv.code, byEnv.stderr).toBe(0);
      expect(thinkingOf(byEnv.stdout)).toEqual([]);

      // The developer's view is not the end user's: the policy leaves it alone.
      const developer = await runCli(['chain', workflowId, '--json', '--policy', POLICY], asNobody);
      expect(thinkingOf(developer.stdout).some((t) => t.includes(THOUGHT))).toBe(true);

      const exported = await runCli(
        ['export', workflowId, '--role', 'end_user', '--format', 'json', '--policy', POLICY],
        asNobody,
      );
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).not.toContain(THOUGHT);
      expect(exported.stdout).toContain('Take the second offer.');
      const exportedPlain = await runCli(['export', workflowId, '--role', 'end_user', '--format', 'json'], asNobody);
      expect(exportedPlain.code, exportedPlain.stderr).toBe(0);
      expect(exportedPlain.stdout).toContain(THOUGHT);
    },
  );

  it('exits 2 with the reason for a policy it cannot read, and never runs the command without it', async () => {
    for (const args of [
      ['chain', 'no-such-run', '--policy', BROKEN],
      ['watch', 'no-such-run', '--policy', BROKEN],
      ['export', 'no-such-run', '--policy', BROKEN],
      ['chain', 'no-such-run', '--policy', path.join(dir, 'missing.yaml')],
    ]) {
      const run = await runCli(args, asNobody);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/The visibility policy .* cannot be used: /);
      expect(run.stdout).toBe('');
    }
    const run = await runCli(['chain', 'no-such-run'], { ...asNobody, THOUGHTLINE_VISIBILITY_POLICY: BROKEN });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('roles.end_user.steps.thinking');
  });
});
