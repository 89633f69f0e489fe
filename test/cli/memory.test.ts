import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { updateMemory } from '../../src/activities/memory/agent-memory-execution';
import type { MemoryEntry } from '../../src/domain/planning/agent-memory';
import { rememberLearningsUpdate } from '../../src/workflows/memory/agent-memory-messages';
import { cliEnv, runCli } from '../helpers/cli-process';
import { ScriptBook, sharedWorker } from '../helpers/people-helpers';

const shared = sharedWorker(() => [], new ScriptBook().provider);
const env = () => cliEnv({ THOUGHTLINE_TASK_QUEUE: shared.h.taskQueue, THOUGHTLINE_USER: 'alice' });

/** Keeps learnings as a run without a tenant would (the runs the CLI starts). */
const keep = (agent: string, texts: string[], tenant?: string) =>
  updateMemory(
    shared.env.client,
    tenant === undefined ? { agent } : { tenant, agent },
    rememberLearningsUpdate,
    { runId: `run-${agent}`, learnings: texts.map((text) => ({ text })) },
    { taskQueue: shared.h.taskQueue },
  );

describe('thoughtline memory', () => {
  it('lists the memory of runs without a tenant (text, terminal-safe, and --json), deletes by --id and --all', async () => {
    const agent = `cli-${randomUUID().slice(0, 8)}`;
    await keep(agent, ['use the v2 API', 'evil \x1b]52;c;aGk=\x07 text']);
    await keep(agent, ['acme secret plan'], 'acme');
    await keep(agent, ['a tenant called default'], 'default');

    const listed = await runCli(['memory', 'list', '--agent', agent], env());
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^\\S+  \\S+Z  from run run-${agent}\\n  use the v2 API\\n`));
    expect(listed.stdout).toContain('evil  text');
    expect(listed.stdout).not.toContain('\x1b');
    expect(listed.stdout).not.toContain('acme secret plan');
    expect(listed.stdout).not.toContain('a tenant called default');
    const tenantDefault = await runCli(['memory', 'list', '--agent', agent, '--tenant', 'default'], env());
    expect(tenantDefault.code, tenantDefault.stderr).toBe(0);
    expect(tenantDefault.stdout).toMatch(
      new RegExp(`^\\S+  \\S+Z  from run run-${agent}\\n  a tenant called default\\n$`),
    );

    const json = await runCli(['memory', 'list', '--agent', agent, '--json'], env());
    expect(json.code, json.stderr).toBe(0);
    const entries = JSON.parse(json.stdout) as MemoryEntry[];
    expect(entries.map((e) => e.text)).toEqual(['use the v2 API', 'evil \x1b]52;c;aGk=\x07 text']);

    const one = await runCli(['memory', 'delete', '--agent', agent, '--id', entries[0]!.id], env());
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toBe(`Forgot 1 entry of agent ${agent}'s memory for runs without a tenant; 1 left.\n`);
    const all = await runCli(['memory', 'delete', '--agent', agent, '--all'], env());
    expect(all.stdout).toBe(`Forgot 1 entry of agent ${agent}'s memory for runs without a tenant; 0 left.\n`);
    const none = await runCli(['memory', 'list', '--agent', agent], env());
    expect(none.stdout).toBe(`Agent ${agent} has no memory yet for runs without a tenant.\n`);
    // The tenants' memories are untouched; a tenant's is forgotten with --tenant.
    expect((await shared.h.agents.memory({ tenant: 'acme', agent })).map((e) => e.text)).toEqual(['acme secret plan']);
    expect((await shared.h.agents.memory({ tenant: 'default', agent })).map((e) => e.text)).toEqual([
      'a tenant called default',
    ]);
    const acme = await runCli(['memory', 'delete', '--agent', agent, '--tenant', 'acme', '--all'], env());
    expect(acme.stdout).toBe(`Forgot 1 entry of agent ${agent}'s memory for tenant acme; 0 left.\n`);
    expect(await shared.h.agents.memory({ tenant: 'acme', agent })).toEqual([]);
  });

  it('a missing or conflicting option is a usage error (exit 2) that says what it takes', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['memory'], /"memory" needs list or delete/],
      [['memory', 'show', '--agent', 'a'], /memory takes list or delete, not "show"/],
      [['memory', 'list'], /--agent NAME is required/],
      [['memory', 'delete', '--agent', 'a'], /--id ID \(repeatable\) or --all, one of them/],
      [['memory', 'delete', '--agent', 'a', '--id', 'x', '--all'], /--id ID \(repeatable\) or --all, one of them/],
      [['memory', 'delete', '--agent', 'a', '--all', '--json'], /--json goes with memory list/],
      [['memory', 'list', '--agent', 'a', '--all'], /--id and --all go with memory delete/],
      [['memory', 'list', '--agent', 'a'.repeat(101)], /--agent takes a name of 1–100 characters/],
      [['memory', 'list', '--agent', 'a', '--tenant', 't'.repeat(101)], /--tenant takes a name of 1–100 characters/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await runCli(args, env());
      expect(code, args.join(' ').slice(0, 80)).toBe(2);
      expect(stderr).toMatch(message);
    }
  });
});
