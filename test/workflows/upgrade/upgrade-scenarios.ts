import { expect } from 'vitest';
import { z } from 'zod';
import type { ModelProvider } from '../../../src/activities';
import { useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import type { AgentClient } from '../../../src/client/agent-client';
import type { AgentInputInit, AgentStatus } from '../../../src/shared';
import type { defineTool } from '../../../src/tools/define-tool';
import { ScriptBook, taskOf, waitFor } from '../../helpers/people-helpers';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';

/*
 * The runs an earlier release leaves waiting and today's worker finishes: a question, an
 * approval, a model call in flight, and a sub-agent's approval. One scripted model per task.
 */

/** Long enough (≥ 256 characters) that today's runs name it by hash in the next model call. */
export const pageText = (n: number) => `page ${n}: ${'lorem ipsum '.repeat(50)}`;

/** The tools, defined with a release's own defineTool, so each worker gets its own kind. */
export function tools(define: typeof defineTool, written: string[]) {
  return [
    define({ name: 'page', description: 'Returns page n', input: z.object({ n: z.number() }), execute: ({ n }) => pageText(n) }),
    define({
      name: 'write_file',
      type: 'file_system',
      description: 'Writes text to a file',
      input: z.object({ path: z.string(), text: z.string() }),
      retry: { maximumAttempts: 1 },
      execute: ({ path: file, text }) => {
        written.push(`${file}: ${text}`);
        return `wrote ${text.length} characters to ${file}`;
      },
    }),
  ];
}

const pages = (from: number, to: number): ScriptedTurn[] => Array.from({ length: to - from + 1 }, (_, i) => ({ content: [useTool('page', { n: from + i })] }));

/** A run of the test: its task (its script's key), its model's turns, and what it reads. */
export interface Scenario {
  task: string;
  turns: ScriptedTurn[];
  input: Partial<AgentInputInit>;
  /** Pages the run (or its child) reads, 1…n. */
  pages: number;
  answer: string;
}

/** A question in the middle, handing over every two iterations on both sides of the upgrade. */
export const QUESTION: Scenario = {
  task: 'Read six pages, asking before the fourth',
  turns: [...pages(1, 3), { content: [useTool('ask_person', { question: 'Go on reading?' })] }, ...pages(4, 6), { content: [useTool('finish', { result: 'read six pages' })] }],
  input: { allowQuestions: true, continueAsNewEvery: 2 },
  pages: 6,
  answer: 'read six pages',
};

/** A write that waits for approval. */
export const APPROVAL: Scenario = {
  task: 'Read a page, write it down, read another',
  turns: [...pages(1, 1), { content: [useTool('write_file', { path: 'notes.txt', text: 'page one' })] }, ...pages(2, 2), { content: [useTool('finish', { result: 'wrote it down' })] }],
  input: {},
  pages: 2,
  answer: 'wrote it down',
};

/** A run whose third model call is in flight when the earlier release's worker stops: today's worker retries it, as the earlier release scheduled it. */
export const IN_FLIGHT: Scenario = {
  task: 'Read three pages while the worker is replaced',
  turns: [...pages(1, 3), { content: [useTool('finish', { result: 'read three pages' })] }],
  input: {},
  pages: 3,
  answer: 'read three pages',
};

/** A sub-agent (a child workflow) whose write waits for approval; its parent waits on it. */
export const CHILD: Scenario = {
  task: 'Read page one and write it down',
  turns: [...pages(1, 1), { content: [useTool('write_file', { path: 'child.txt', text: 'page one' })] }, { content: [useTool('finish', { result: 'the child wrote it down' })] }],
  input: {},
  pages: 1,
  answer: 'the child wrote it down',
};

/** The parent: it delegates to writer_agent, then finishes. */
export const DELEGATION: Scenario = {
  task: 'Have a writer write page one down',
  turns: [{ content: [useTool('writer_agent', { task: CHILD.task })] }, { content: [useTool('finish', { result: 'the writer wrote it down' })] }],
  input: { agents: { writer_agent: { description: 'Reads and writes', model: SCRIPTED_MODEL, tools: ['page', 'write_file'] } } },
  pages: 0,
  answer: 'the writer wrote it down',
};

/** The runs each test starts, in this order. */
export const STARTED = [QUESTION, APPROVAL, IN_FLIGHT, DELEGATION] as const;

/**
 * The book's provider, holding IN_FLIGHT's third and later calls while `holding`: each waits
 * until its activity is cancelled (the worker stops), then fails that attempt without reaching
 * the script.
 */
export function holdingInFlight(book: ScriptBook) {
  const state = { holding: true, held: 0, calls: 0 };
  const provider: ModelProvider = {
    name: book.provider.name,
    async complete(request, signal, hooks) {
      if (taskOf(request) === IN_FLIGHT.task && state.holding && ++state.calls >= 3) {
        state.held += 1;
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('held until the earlier release\'s worker stopped')), { once: true }));
      }
      return book.provider.complete(request, signal, hooks);
    },
  };
  return { provider, state };
}

export const startInput = (run: Scenario): AgentInputInit => ({ task: run.task, model: SCRIPTED_MODEL, maxToolResultChars: 2_000, ...run.input });

/** Every run's script (the child's too) in one book, keyed by task. */
export function scripts() {
  const book = new ScriptBook();
  const models = new Map([...STARTED, CHILD].map((run) => [run, book.script(run.task, run.turns)]));
  return { book, models };
}

/** The root runs, started by `start` and taken to where each waits: for a person (twice, once in a child) or on a model call. */
export async function startAndWait(start: (run: Scenario) => Promise<{ workflowId: string }>, status: (workflowId: string) => Promise<AgentStatus>): Promise<string[]> {
  const ids = (await Promise.all(STARTED.map(start))).map((run) => run.workflowId);
  const [question, approval, , delegation] = ids;
  await waitFor('the open question', async () => (await status(question!)).openQuestion, 30_000);
  await waitFor('the pending write', async () => ((await status(approval!)).pendingApprovals ?? []).length === 1, 30_000);
  await waitFor("the child's pending write, listed by its parent", async () => ((await status(delegation!)).pendingApprovals ?? []).length === 1, 30_000);
  return ids;
}

/** A person answers the question and approves both writes (the child's through its parent), with today's client. */
export async function answerAndApprove(agents: AgentClient, [question, approval, , delegation]: readonly string[]): Promise<void> {
  await agents.answer(question!, 'Yes, go on.', 'ana');
  for (const id of [approval!, delegation!]) {
    const [pending] = await waitFor('a pending write', async () => {
      const listed = (await agents.status(id)).pendingApprovals;
      return listed.length === 1 ? listed : undefined;
    }, 30_000);
    expect(pending).toMatchObject({ toolName: 'write_file' });
    await agents.decide(id, { callId: pending!.callId, approved: true, by: 'ana' });
  }
}

