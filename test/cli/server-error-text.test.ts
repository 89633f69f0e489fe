import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../helpers/cli-process';

/** A server's refusal, as the CLI prints it: exit 1, the server's words after the SDK's, what to do, no stack. */
function expectRefusal(
  result: { code: number | null; stdout: string; stderr: string },
  cause: string,
  advice: RegExp,
): void {
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stderr.trimEnd().split('\n');
  const failure = lines.findIndex((line) => line.includes(cause));
  expect(failure, result.stderr).toBeGreaterThanOrEqual(0);
  expect(lines[failure + 1]).toMatch(advice);
  // The failure and its advice are the last two lines, and nothing in the output is a stack frame.
  expect(lines.length).toBe(failure + 2);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

describe('a server refusing what the CLI asked prints its cause and what to do', () => {
  it('a namespace that does not exist: the server says so, and the CLI says how to create it', async () => {
    const namespace = `missing-${randomUUID().slice(0, 8)}`;
    const result = await runCli(
      ['run', 'Compare the weather in Paris and Tokyo'],
      cliEnv({ TEMPORAL_NAMESPACE: namespace }),
    );
    expectRefusal(
      result,
      `thoughtline: could not read the search attributes of namespace '${namespace}': Namespace ${namespace} is not found.`,
      new RegExp(
        `^thoughtline: what to do: create namespace ${namespace} with "temporal operator namespace create --namespace ${namespace}", or set TEMPORAL_NAMESPACE to one that exists$`,
      ),
    );
  });

  it('"Failed to start Workflow" comes with the search attribute the server refused and how to fix it', async () => {
    const result = await runCli(
      ['run', 'Compare the weather in Paris and Tokyo', '--model', 'm'.repeat(3000)],
      cliEnv({ THOUGHTLINE_TASK_QUEUE: `refused-${randomUUID()}` }),
    );
    expectRefusal(
      result,
      'thoughtline: Failed to start Workflow: search attribute ThoughtlineModel value size 3002 exceeds size limit 2048',
      /^thoughtline: what to do: shorten the value it names \(a model, agent, tenant or caller name is stored in ThoughtlineModel\)/,
    );
    // Refused at once: a value the server finds too long is not retried as if the attribute were unknown.
    expect(result.stderr).not.toContain('trying again');
  });
});
