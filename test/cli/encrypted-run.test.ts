import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateEncryptionKey } from '../../src/codec/encryption-keys';
import { AgentStatus } from '../../src/domain';
import { cliEnv, runCli } from '../helpers/cli-process';

describe('an encrypted run', () => {
  it('read without keys says to set THOUGHTLINE_ENCRYPTION_KEYS (exit 1); with them, status is human text and --json the record', async () => {
    const queue = `encrypted-${randomUUID()}`;
    const withKeys = cliEnv({
      THOUGHTLINE_TASK_QUEUE: queue,
      THOUGHTLINE_ENCRYPTION_KEYS: generateEncryptionKey('k1'),
    });
    const withoutKeys = cliEnv({ THOUGHTLINE_TASK_QUEUE: queue });
    delete withoutKeys['THOUGHTLINE_ENCRYPTION_KEYS'];
    const id = `agent-encrypted-${randomUUID()}`;
    // The offline model and the embedded worker: however the run ends, it completes with a result.
    const run = await runCli(
      ['run', 'Compare the weather in Paris and Tokyo', '--json', '--workflow-id', id, '--max-iterations', '4'],
      withKeys,
    );
    expect([0, 1], run.stderr).toContain(run.code);

    for (const args of [
      ['status', id],
      ['chain', id],
      ['export', id],
    ]) {
      const unread = await runCli(args, withoutKeys);
      expect(unread.code, args.join(' ')).toBe(1);
      expect(unread.stderr).toContain(
        "thoughtline: the run's payloads are encrypted and this process has no keys to read them: set THOUGHTLINE_ENCRYPTION_KEYS to the keys the run was written with",
      );
      expect(unread.stderr).not.toContain('Unknown encoding');
    }

    const human = await runCli(['status', id], withKeys);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(
      new RegExp(`^Run ${id}: completed\\nEnded: +completed · success\\nIteration: +\\d+ of 4 · \\d+ steps\\n`),
    );
    expect(human.stdout).toMatch(/\nTokens: +[\d,]+ \(/);
    expect(human.stdout).toMatch(/\nCost: +\$\d/);
    expect(human.stdout).not.toContain('{');

    const json = await runCli(['status', id, '--json'], withKeys);
    expect(json.code, json.stderr).toBe(0);
    expect(AgentStatus.parse(JSON.parse(json.stdout))).toMatchObject({ status: 'completed', maxIterations: 4 });

    // An ended run refuses steering, with the agent's own reason when it can be read.
    const steer = await runCli(['steer', id, 'Use only 2024 data'], withKeys);
    expect(steer.code).toBe(1);
    expect(steer.stderr).toMatch(
      new RegExp(`thoughtline: run ${id} has ended \\(completed: [a-z_]+\\); nothing to steer\\.`),
    );
  }, 180_000);
});
