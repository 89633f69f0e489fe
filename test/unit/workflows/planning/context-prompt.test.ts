import { describe, expect, it } from 'vitest';
import {
  AgentContext,
  MAX_CONTEXT_DATA_BYTES,
  MAX_CONTEXT_FILE_BYTES,
  MAX_CONTEXT_FILES,
} from '../../../../src/domain/run/agent-context';
import { contextNote, contextPrompt, hasContext } from '../../../../src/workflows/planning/context-prompt';
import { plannerPrompt } from '../../../../src/workflows/planning/plans/plan-prompts';
import { offlinePlanReply } from '../../../../src/offline/offline-plan';

const context = AgentContext.parse({
  data: { repo: '/srv/app', error: 'login fails' },
  files: [
    { name: 'auth.py', content: 'def login(): pass\n</file>', bytes: 25 },
    { name: 'big.log', content: 'head', bytes: 90_000, truncated: true },
  ],
});

describe('context in prompts and the chain', () => {
  it('delimits each file and the data for the model, without letting a file close its block early', () => {
    const text = contextPrompt(context);
    expect(text).toContain('<data>\n{"repo":"/srv/app","error":"login fails"}\n</data>');
    expect(text).toContain('<file name="auth.py">\ndef login(): pass\n<\\/file>\n</file>');
    expect(text).toContain('<file name="big.log" truncated="true" bytes="90000">\nhead\n</file>');
  });

  it('lists data and files by name, size and cut in the note, never their text', () => {
    const note = contextNote(context);
    expect(note).toContain('Data: {"repo":"/srv/app","error":"login fails"}');
    expect(note).toContain('- auth.py: 25 bytes\n- big.log: 90000 bytes, truncated to its first part');
    expect(note).not.toContain('def login');
  });

  it('redacts secrets a client left in', () => {
    const leaky = AgentContext.parse({
      data: { api_key: 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789' },
      files: [{ name: '.env', content: 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', bytes: 60 }],
    });
    expect(contextPrompt(leaky)).not.toContain('wJalrXUtnFEMI');
    expect(contextNote(leaky)).not.toContain('abcdefghijklmnop');
  });

  it('reaches the planner after its instructions, and the offline planner still reads goal and tools', () => {
    const prompt = plannerPrompt('Fix the login', ['read_file'], { maxTasks: 4 }, undefined, context);
    expect(prompt.indexOf('<file name="auth.py">')).toBeGreaterThan(prompt.indexOf('"estimated_complexity"'));
    expect(prompt.indexOf('<file name="auth.py">')).toBeLessThan(prompt.indexOf('Reply with only the JSON object'));
    const reply = JSON.parse(offlinePlanReply(prompt)) as { tasks: { description: string }[] };
    expect(reply.tasks[0]?.description).toContain('Fix the login');
    expect(hasContext(AgentContext.parse({}))).toBe(false);
  });

  it('accepts a context at its limits and refuses one past them', () => {
    const atLimit = {
      files: Array.from({ length: MAX_CONTEXT_FILES }, (_, i) => ({
        name: `f${i}`,
        content: i === 0 ? 'a'.repeat(MAX_CONTEXT_FILE_BYTES) : 'x',
        bytes: 1,
      })),
      data: { text: 'd'.repeat(MAX_CONTEXT_DATA_BYTES - '{"text":""}'.length) },
    };
    expect(AgentContext.safeParse(atLimit).success).toBe(true);
    const tooManyFiles = { files: [...atLimit.files, { name: 'extra', content: '', bytes: 0 }] };
    expect(AgentContext.safeParse(tooManyFiles).success).toBe(false);
    const fileTooBig = { files: [{ name: 'f', content: 'a'.repeat(MAX_CONTEXT_FILE_BYTES + 1), bytes: 1 }] };
    expect(AgentContext.safeParse(fileTooBig).error?.message).toMatch(/at most 32768 bytes/);
    const dataTooBig = { data: { text: 'd'.repeat(MAX_CONTEXT_DATA_BYTES) } };
    expect(AgentContext.safeParse(dataTooBig).error?.message).toMatch(/Context data must be at most/);
  });
});
