import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentInput, AgentResult, ReasoningStep } from '../../src/domain';
import { cliEnv, PROJECT_ROOT } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';

/**
 * Seed 003's CLI examples, as written, against the offline model (no API key) on the suite's dev
 * server, each run on the CLI's own worker. What each flag said must be in the run's start input,
 * the record the whole run is built from; secrets in a context file must not be anywhere in the history.
 */
const env = useTestEnv();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-run-inputs-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const AWS_KEY = 'AKIAQ3EGUJ5RZTXMPL7W';
const ANTHROPIC_KEY = `sk-ant-api03-${'Zq9xL2mN4pR7sT1v'.repeat(4)}`;
const AUTH_PY = `import re

AWS_ACCESS = "${AWS_KEY}"
CLIENT = "${ANTHROPIC_KEY}"

def login(user, password):
    # Special characters in the password break this pattern.
    return re.match(r"^[A-Za-z0-9]+$", password) is not None
`;
fs.writeFileSync(path.join(dir, 'auth.py'), AUTH_PY);

/** Runs the compiled CLI in `dir` (its working directory: the default files root) to its end. */
function runCliIn(args: string[]): Promise<{ code: number | null; output: string }> {
  const cli = path.join(PROJECT_ROOT, 'dist/cli/main.js');
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: dir,
    env: cliEnv({ THOUGHTLINE_TASK_QUEUE: `run-inputs-${randomUUID()}` }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

/** The input the run was started with, from its first history event, and the whole history's bytes. */
async function startedWith(workflowId: string): Promise<{ input: AgentInput; bytes: Buffer }> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  const payload = started?.input?.payloads?.[0];
  if (!payload) throw new Error(`${workflowId} has no start input`);
  return {
    input: env.client.options.loadedDataConverter.payloadConverter.fromPayload<AgentInput>(payload),
    bytes: Buffer.from(temporal.api.history.v1.History.encode(history).finish()),
  };
}

/** The run's result, with its chain (the workflow's own return value). */
const resultOf = (workflowId: string): Promise<AgentResult> =>
  env.client.workflow.getHandle(workflowId).result() as Promise<AgentResult>;

const notes = (result: AgentResult, purpose: string): Extract<ReasoningStep, { type: 'thinking' }>[] =>
  result.chain.steps.filter(
    (s): s is Extract<ReasoningStep, { type: 'thinking' }> => s.type === 'thinking' && s.purpose === purpose,
  );

/** A run the offline model ends on its own: completed, with or without success. */
async function expectRunEnded(workflowId: string, run: { code: number | null; output: string }): Promise<void> {
  expect([0, 1], run.output).toContain(run.code);
  const description = await env.client.workflow.getHandle(workflowId).describe();
  expect(description.status.name, run.output).toBe('COMPLETED');
}

describe('seed 003 CLI examples on the offline model', () => {
  it('debugs a bug with files: thoughtline run "Fix login issue with special characters" --files auth.py', async () => {
    const id = `agent-files-${randomUUID()}`;
    const run = await runCliIn([
      'run',
      'Fix login issue with special characters',
      '--files',
      'auth.py',
      '--workflow-id',
      id,
      '--max-iterations',
      '4',
      '--json',
    ]);
    await expectRunEnded(id, run);
    const { input, bytes } = await startedWith(id);
    expect(input.task).toBe('Fix login issue with special characters');
    expect(input.context?.files).toHaveLength(1);
    const [file] = input.context!.files;
    expect(file).toMatchObject({ name: 'auth.py', bytes: Buffer.byteLength(AUTH_PY), truncated: false });
    expect(file!.content).toContain('def login(user, password):');
    expect(file!.content).toContain('AWS_ACCESS = "[REDACTED]"');
    expect(file!.content).toContain('CLIENT = "[REDACTED]"');
    // Nowhere in the history: not in the input, the chain, a prompt or a result.
    expect(bytes.includes(AWS_KEY)).toBe(false);
    expect(bytes.includes(ANTHROPIC_KEY)).toBe(false);
    expect(bytes.includes('def login(user, password):')).toBe(true);
    // run's own worker served the reading file tools: the model was offered them.
    expect(bytes.includes('files_read')).toBe(true);
    expect(bytes.includes('files_write')).toBe(false);
    // The context is the chain's first step, naming the file, never holding its text.
    const result = await resultOf(id);
    expect(result.chain.steps[0]).toMatchObject({ type: 'thinking', purpose: 'context' });
    const first = result.chain.steps[0] as Extract<ReasoningStep, { type: 'thinking' }>;
    expect(first.thought).toContain('auth.py');
    expect(first.thought).not.toContain('def login');
  }, 180_000);

  it('implements a feature: thoughtline run "Add password reset functionality" --workflow implement_feature', async () => {
    const id = `agent-feature-${randomUUID()}`;
    const run = await runCliIn([
      'run',
      'Add password reset functionality',
      '--workflow',
      'implement_feature',
      '--workflow-id',
      id,
      '--max-iterations',
      '4',
      '--json',
    ]);
    await expectRunEnded(id, run);
    const { input } = await startedWith(id);
    expect(input.task).toBe('Add password reset functionality');
    expect(input.context).toBeUndefined();
    // No --files: no file tools were offered.
    expect((await startedWith(id)).bytes.includes('files_read')).toBe(false);
    expect(input.planning?.workflow?.name).toBe('implement_feature');
    expect(input.planning?.workflow?.steps.map((s) => s.description)).toEqual([
      'Understand requirements',
      'Design architecture',
      'Identify files to modify',
      'Implement core functionality',
      'Add error handling',
      'Write tests',
      'Update documentation',
      'Commit changes',
    ]);
    expect(input.planning?.workflow?.steps[7]?.after).toEqual(['update_documentation']);
    // The workflow's steps are the plan as written (no planner call), and the first step's choice is recorded.
    const result = await resultOf(id);
    expect(result.chain.plan).toMatchObject({ source: 'workflow', workflow: 'implement_feature' });
    expect(result.chain.plan?.tasks).toHaveLength(8);
    expect(notes(result, 'task_choice')[0]?.taskChoice?.taskId).toBe('understand_requirements');
    const llmNotes = result.chain.steps.filter((s) => s.type === 'tool_call' && s.toolCall.toolType === 'llm');
    expect(llmNotes.every((s) => s.type === 'tool_call' && !/plan/.test(s.toolCall.toolName))).toBe(true);
  }, 180_000);

  it('runs a workflow: thoughtline run --workflow debug_bug --context \'{"file": "auth.py", "error": "..."}\'', async () => {
    const id = `agent-workflow-${randomUUID()}`;
    const run = await runCliIn([
      'run',
      '--workflow',
      'debug_bug',
      '--context',
      '{"file": "auth.py", "error": "..."}',
      '--workflow-id',
      id,
      '--max-iterations',
      '4',
      '--json',
    ]);
    await expectRunEnded(id, run);
    const { input } = await startedWith(id);
    // No goal given: the workflow's description is the goal.
    expect(input.task).toBe('Systematically debug and fix a bug');
    expect(input.context).toEqual({ data: { file: 'auth.py', error: '...' }, files: [] });
    expect(input.planning?.workflow?.steps[0]).toMatchObject({ id: 'reproduce_the_bug', after: [] });
    const result = await resultOf(id);
    expect(result.chain.steps[0]).toMatchObject({ type: 'thinking', purpose: 'context' });
    expect((result.chain.steps[0] as Extract<ReasoningStep, { type: 'thinking' }>).thought).toContain('auth.py');
    expect(result.chain.plan).toMatchObject({ source: 'workflow', workflow: 'debug_bug' });
  }, 180_000);

  it('runs a workflow file with files under --files-root', async () => {
    // Like examples/workflows/fix-bug.yaml without its approval step, so that no run here waits for a person.
    fs.writeFileSync(
      path.join(dir, 'fix-bug.yaml'),
      [
        'name: fix-bug',
        'steps:',
        '  - id: read',
        '    description: Read the files in the context',
        '    tools: [files_read, files_list]',
        '  - id: diagnose',
        '    description: Identify the root cause',
        '    after: [read]',
        '  - id: propose',
        '    description: Propose the smallest fix',
        '    after: [diagnose]',
        '    tools: []',
        '',
      ].join('\n'),
    );
    fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', 'views.py'), 'from auth import login\n');
    const id = `agent-workflow-file-${randomUUID()}`;
    const run = await runCliIn([
      'run',
      'Fix login issue with special characters',
      '--workflow',
      'fix-bug.yaml',
      '--files-root',
      'src',
      '--files',
      'views.py',
      '--context',
      '{"error": "login fails for p@ss"}',
      '--workflow-id',
      id,
      '--max-iterations',
      '4',
      '--json',
    ]);
    await expectRunEnded(id, run);
    const { input } = await startedWith(id);
    expect(input.planning?.workflow).toMatchObject({ name: 'fix-bug' });
    expect(input.planning?.workflow?.steps.map((s) => [s.id, s.after, s.tools])).toEqual([
      ['read', [], ['files_read', 'files_list']],
      ['diagnose', ['read'], undefined],
      ['propose', ['diagnose'], []],
    ]);
    expect(input.context).toEqual({
      data: { error: 'login fails for p@ss' },
      files: [{ name: 'views.py', content: 'from auth import login\n', bytes: 23, truncated: false }],
    });
    const result = await resultOf(id);
    expect(result.chain.plan?.tasks.map((t) => [t.id, t.allowedTools])).toEqual([
      ['read', ['files_read', 'files_list']],
      ['diagnose', undefined],
      ['propose', []],
    ]);
  }, 180_000);

  it('refuses a bad workflow file with its line before any run starts (exit 2)', async () => {
    fs.writeFileSync(
      path.join(dir, 'cyclic.yaml'),
      'name: cyclic\nsteps:\n  - id: a\n    description: A\n    after: [b]\n  - id: b\n    description: B\n    after: [a]\n',
    );
    const run = await runCliIn(['run', 'goal', '--workflow', 'cyclic.yaml']);
    expect(run.code).toBe(2);
    expect(run.output).toContain(
      'cyclic.yaml:5: steps[0].after: The steps depend on each other in a cycle: a → b → a.',
    );
    expect(run.output).not.toContain('Started ');
  }, 60_000);

  it('refuses a missing --files name naming the file and the root, and the name to give for a path from here', async () => {
    fs.mkdirSync(path.join(dir, 'app'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'app', 'views.py'), 'from auth import login\n');
    const fromHere = await runCliIn(['run', 'goal', '--files-root', 'app', '--files', 'app/views.py']);
    expect(fromHere.code).toBe(2);
    expect(fromHere.output).toContain(
      `--files app/views.py: no such file under --files-root ${fs.realpathSync(dir)}/app. app/views.py is a path from the current directory; names are relative to --files-root: --files views.py.`,
    );
    const missing = await runCliIn(['run', 'goal', '--files', 'nope.py']);
    expect(missing.code).toBe(2);
    expect(missing.output).toContain(
      `--files nope.py: no such file in the current directory (${fs.realpathSync(dir)}), the default --files-root.`,
    );
    expect(`${fromHere.output}${missing.output}`).not.toContain('Started ');
  }, 60_000);
});
