import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { UpdateRefusedError } from '../../src/client/errors/update-refused-error';
import { cliEnv, runCli } from '../helpers/cli-process';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

describe('messages to a run that has ended', () => {
  it("steer, answer, cancel, approve and reject say the run has ended and how, exit 1, instead of Temporal's text", async () => {
    // No worker: the run is started and terminated, which is enough to have ended.
    const agents = new AgentClient({ client: env.client, taskQueue: `ended-${randomUUID()}` });
    const handle = await agents.start({ task: 'Never served', model: SCRIPTED_MODEL });
    await handle.terminate('test');
    const id = handle.workflowId;
    const cases: Array<[string[], string]> = [
      [['steer', id, 'Use only 2024 data'], 'steer'],
      [['answer', id, '2024'], 'answer'],
      [['cancel', id], 'cancel'],
      [['cancel', id, '--hard'], 'cancel'],
      [['approve', id, '--yes'], 'approve'],
      [['reject', id, '--reason', 'no', '--yes'], 'reject'],
    ];
    for (const [args, verb] of cases) {
      const { code, stderr } = await runCli(args, cliEnv({}));
      expect(code, args.join(' ')).toBe(1);
      expect(stderr, args.join(' ')).toContain(`thoughtline: run ${id} has ended (terminated); nothing to ${verb}.\n`);
      expect(stderr).not.toMatch(/already completed|Run "thoughtline --help"/);
    }
    // From code too: an answer to an ended run is refused in plain words.
    const answered = agents.answer(id, '2024', 'bob');
    await expect(answered).rejects.toBeInstanceOf(UpdateRefusedError);
    await expect(answered).rejects.toThrow(`run ${id} has ended; nothing was sent to it.`);
  });
});
