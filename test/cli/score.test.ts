import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import { cliEnv, runCli } from '../helpers/cli-process';
import { ScriptBook, sharedWorker } from '../helpers/people-helpers';
import { scriptedInput } from '../helpers/scripted-input';

const book = new ScriptBook();
const shared = sharedWorker(() => [], book.provider);
const env = () => cliEnv({ THOUGHTLINE_TASK_QUEUE: shared.h.taskQueue, THOUGHTLINE_USER: 'alice' });

async function endedRun(): Promise<string> {
  const task = `cli score ${randomUUID().slice(0, 8)}`;
  book.script(task, [{ content: [useTool('finish', { result: 'done' })] }]);
  const handle = await shared.h.agents.start(scriptedInput(task));
  await handle.result();
  return handle.workflowId;
}

describe('thoughtline score', () => {
  it('attaches a score to an ended run and prints it as stored; a second one by the same person replaces it', async () => {
    const id = await endedRun();
    const first = await runCli(['score', id, '--name', 'accepted', '--value', 'true', '--comment', 'merged'], env());
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      new RegExp(
        `^Scored ${id}: accepted = 1 by alice at \\S+Z \\(source cli\\); 1 of at most 200 scores\\.\\n  merged\\n$`,
      ),
    );
    const again = await runCli(['score', id, '--name', 'accepted', '--value=-0.5', '--as', 'alice'], env());
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(
      /^Scored \S+: accepted = -0\.5 by alice at \S+ \(source cli; replaced 1 of \S+Z\); 1 of at most 200/,
    );
    const stored = await shared.h.agents.scores(id);
    expect(stored).toEqual([expect.objectContaining({ name: 'accepted', value: -0.5, by: 'alice', source: 'cli' })]);
    expect(stored[0]!.comment).toBeUndefined();
  });

  it('a bad or missing option is a usage error (exit 2) naming the flag; an unknown run exits 1 saying so', async () => {
    const id = `agent-${randomUUID()}`;
    const cases: Array<[string[], RegExp]> = [
      [['score', id, '--value', '1'], /--name N is required/],
      [['score', id, '--name', 'accepted'], /--value V is required/],
      [['score', id, '--name', 'accepted', '--value', 'yes'], /--value takes a number or true\/false, not "yes"/],
      [['score', id, '--name', 'not ok', '--value', '1'], /--name: a score name is up to 64 letters/],
      [['score', id, '--name', 'ok', '--value', '1', '--comment', 'c'.repeat(2_001)], /--comment takes up to 2000/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await runCli(args, env());
      expect(code, args.join(' ').slice(0, 80)).toBe(2);
      expect(stderr).toMatch(message);
    }
    const unknown = await runCli(['score', id, '--name', 'accepted', '--value', '1'], env());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`no run "${id}" (check the id with \`npx thoughtline runs\`)`);
  });
});
