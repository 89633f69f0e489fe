import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentResult } from '../../src/domain';
import { cliEnv, runCli, spawnCli, type CliProcess } from '../helpers/cli-process';

const processes: CliProcess[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-agents-'));
afterAll(async () => {
  for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGTERM');
  await Promise.all(processes.map((p) => p.exited));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A module that defines agents only, as plain objects (the worker checks them like defineAgent). */
const MODULE = `module.exports = {
  agents: [{
    id: 'weather-reporter',
    description: 'Reports the weather.',
    version: '2.1.0',
    systemPrompt: 'You report the weather in one line.',
    examples: [{ task: 'Weather in Oslo?', answer: 'Oslo: 3 °C, rain.' }],
    tools: ['get_weather'],
  }],
};
`;

describe('thoughtline run --agent', () => {
  it('starts the agent a standing worker registered, by name, and its result names the version', async () => {
    const modulePath = path.join(dir, 'agents.cjs');
    fs.writeFileSync(modulePath, MODULE);
    const queue = `agents-${randomUUID()}`;
    const env = cliEnv({ THOUGHTLINE_TASK_QUEUE: queue });
    const standing = spawnCli(['worker', '--unversioned', '--tools', modulePath], env);
    processes.push(standing);
    await standing.waitFor(/worker polling task queue/);
    expect(standing.output()).toContain('; agents: weather-reporter 2.1.0. Ctrl-C stops it.');

    const run = await runCli(['run', 'Weather in Paris?', '--agent', 'weather-reporter', '--json'], env);
    expect([0, 1], run.stderr).toContain(run.code);
    const result = AgentResult.parse(JSON.parse(run.stdout));
    expect(result.agent).toEqual({ id: 'weather-reporter', version: '2.1.0', source: 'worker' });
    expect(result.chain.agentName).toBe('weather-reporter');

    const unknown = await runCli(['run', 'Weather in Paris?', '--agent', 'forecaster', '--json'], env);
    expect(unknown.code).toBe(1);
    const refused = AgentResult.parse(JSON.parse(unknown.stdout));
    expect(refused).toMatchObject({
      terminationReason: 'error',
      error: 'no agent "forecaster" is registered on the worker that took this run (it knows weather-reporter).',
    });
  }, 180_000);

  it('refuses a name no definition could have (exit 2), and a run by name with no standing worker (exit 1)', async () => {
    const bad = await runCli(['run', 'Hi', '--agent', 'Bad Name'], cliEnv({}));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--agent "Bad Name": An agent id is 1–64 characters');

    const queue = `no-agents-${randomUUID()}`;
    const alone = await runCli(['run', 'Hi', '--agent', 'weather-reporter'], cliEnv({ THOUGHTLINE_TASK_QUEUE: queue }));
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain(
      `--agent weather-reporter needs a worker that registers agents, and none polls task queue`,
    );
  }, 120_000);
});

/** Agents and a guardrail in one module: the CLI's worker registers both, and an agent names the guardrail. */
const GUARDED = `module.exports = {
  agents: [{
    id: 'guarded-reporter',
    description: 'Reports the weather, never for Atlantis.',
    version: '1.0.0',
    systemPrompt: 'You report the weather in one line.',
    tools: ['get_weather'],
    guardrails: ['no-atlantis'],
  }],
  guardrails: [{
    name: 'no-atlantis',
    stage: 'input',
    check: (text) => (/atlantis/i.test(text) ? { verdict: 'block', reason: 'a place we do not serve' } : { verdict: 'pass' }),
  }],
};
`;

describe('thoughtline worker --tools with a guardrails export', () => {
  it("registers the module's guardrails: an agent naming one is checked by it, visibly", async () => {
    const modulePath = path.join(dir, 'guarded.cjs');
    fs.writeFileSync(modulePath, GUARDED);
    const env = cliEnv({ THOUGHTLINE_TASK_QUEUE: `guarded-${randomUUID()}` });
    const standing = spawnCli(['worker', '--unversioned', '--tools', modulePath], env);
    processes.push(standing);
    await standing.waitFor(/worker polling task queue/);

    const blocked = await runCli(['run', 'Weather in Atlantis?', '--agent', 'guarded-reporter', '--json'], env);
    expect(blocked.code, blocked.stderr).toBe(1);
    const result = AgentResult.parse(JSON.parse(blocked.stdout));
    expect(result.terminationReason).toBe('custom');
    expect(result.finalAnswer).toContain('guardrail "no-atlantis" blocked it: a place we do not serve');
    const step = result.chain.steps.find((s) => s.type === 'tool_call' && s.toolCall.toolType === 'guardrail');
    expect(step?.type === 'tool_call' && step.toolCall.toolName).toBe('guardrails:input');
    expect(result.usage.inputTokens).toBe(0);

    const passed = await runCli(['run', 'Weather in Paris?', '--agent', 'guarded-reporter', '--json'], env);
    expect([0, 1], passed.stderr).toContain(passed.code);
    const ok = AgentResult.parse(JSON.parse(passed.stdout));
    expect(ok.terminationReason).not.toBe('custom');
    expect(ok.chain.steps.some((s) => s.type === 'tool_call' && s.toolCall.toolType === 'guardrail')).toBe(true);
  }, 180_000);
});
