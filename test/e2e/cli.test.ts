import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { findOrInstallTemporalCli } from '../../src/dev-server';
import { AgentResult, ReasoningChain } from '../../src/domain';
import { cliEnv, runCli, spawnCli, type CliProcess } from '../helpers/cli-process';

const exec = promisify(execFile);
let worker: CliProcess | undefined;
afterAll(async () => {
  worker?.child.kill('SIGTERM');
  await worker?.exited;
});

describe('the thoughtline CLI against a real server', () => {
  it('runs a task on a separate worker, prints the AgentResult as JSON, and the temporal CLI queries its chain', async () => {
    const env = cliEnv({ THOUGHTLINE_TASK_QUEUE: `cli-${randomUUID()}` });
    worker = spawnCli(['worker'], env);
    await worker.waitFor(/worker polling task queue/);

    const run = await runCli(['run', 'Compare the weather in San Francisco and Paris', '--json', '--no-worker'], env);
    expect(run.code, run.stderr).toBe(0);
    const result = AgentResult.parse(JSON.parse(run.stdout));
    expect(result).toMatchObject({ success: true, terminationReason: 'success', toolCalls: 2 });
    expect(result.finalAnswer).toContain('San Francisco');
    expect(worker.output()).toContain('runs use the offline model');
    expect(result.finalAnswer).toMatch(/^\[offline model\]/);

    const temporal = await findOrInstallTemporalCli({ log: () => {} });
    const { stdout } = await exec(temporal, [
      'workflow',
      'query',
      '--address',
      env['TEMPORAL_ADDRESS']!,
      '--namespace',
      env['TEMPORAL_NAMESPACE']!,
      '--workflow-id',
      result.chain.chainId,
      '--type',
      'chain',
      '--output',
      'json',
    ]);
    // The temporal CLI prints an empty list as null (`"unsupported": null` of a grounded answer's check).
    const answer = JSON.parse(stdout, (key, value: unknown) =>
      value === null && key === 'unsupported' ? [] : value,
    ) as { queryResult: unknown[] };
    const chain = ReasoningChain.parse(answer.queryResult[0]);
    expect(chain.steps).toEqual(result.chain.steps);

    // One page of the chain: the steps after --after-step, at most --limit.
    const page = await runCli(['chain', result.chain.chainId, '--json', '--after-step', '2', '--limit', '3'], env);
    expect(page.code, page.stderr).toBe(0);
    expect(ReasoningChain.parse(JSON.parse(page.stdout)).steps.map((s) => s.stepNumber)).toEqual([3, 4, 5]);
    const badLimit = await runCli(['chain', result.chain.chainId, '--limit', '0'], env);
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toMatch(/--limit takes a positive whole number up to 5000/);
  });

  it('explains usage mistakes with exit code 2', async () => {
    const missing = await runCli(['run'], cliEnv({}));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/"run" needs a task/);
    const unknown = await runCli(['frobnicate'], cliEnv({}));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
  });
});
