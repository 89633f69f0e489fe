import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { loadVisibilityPolicy, type LoadedPolicy } from '../../src/governance';
import type { ReasoningChain } from '../../src/domain';
import { defineTool } from '../../src/tools/define-tool';

/** Words only the run's thinking step carries: a search for them finds the run only where thinking shows. */
export const THOUGHT = 'pondering the wombat ledger';

/** One external tool (an external call) and one custom tool (an internal call). */
export function policyTools() {
  const fetchSource = defineTool({
    name: 'fetch_source',
    description: 'Reads an outside source',
    input: z.object({ url: z.string() }),
    execute: ({ url }) => ({ url, records: 247 }),
  });
  const tally = defineTool({
    name: 'tally',
    type: 'custom',
    description: 'Counts records',
    input: z.object({ n: z.number() }),
    execute: ({ n }) => ({ total: n }),
  });
  return [fetchSource, tally];
}

/** A run that thinks, calls an outside source and an internal tool, then answers. */
export const policyTurns = (answer: string) => [
  {
    content: [
      say(`I am ${THOUGHT}.`),
      useTool('fetch_source', { url: 'https://example.com/a' }),
      useTool('tally', { n: 247 }),
    ],
  },
  { content: [useTool('finish', { result: answer })] },
];

/** Writes `text` as a policy file in `dir` and loads it as `serve --policy` does. */
export async function writePolicy(dir: string, name: string, text: string): Promise<LoadedPolicy> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return { policy: await loadVisibilityPolicy(file), path: file };
}

/** The policy of the done-when test: thinking hidden from end users, nothing else. */
export const HIDE_THINKING_FROM_END_USERS = `version: 1
roles:
  end_user:
    steps:
      thinking: hidden
`;

export const typesOf = (chain: ReasoningChain): string[] => chain.steps.map((step) => step.type);
/** The tools (not models) the chain shows calls to. */
export const toolsCalled = (chain: ReasoningChain): string[] =>
  chain.steps.flatMap((step) =>
    step.type === 'tool_call' && step.toolCall.toolType !== 'llm' ? [step.toolCall.toolName] : [],
  );
