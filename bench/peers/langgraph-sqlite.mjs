// LangGraph.js peer: the prebuilt ReAct agent (agent and tools nodes) checkpointing every
// super-step to SQLite in a temp file (a real on-disk checkpointer, not :memory:), one thread
// per run, with a scripted chat model and the instant tool.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { z } from 'zod';
import { finalAnswer, instantTool, runInstantTool } from './instant-tool.mjs';
import { log, measureRuns } from './measure-runs.mjs';
import { packageVersion } from './package-version.mjs';
import { parsePeerArgs } from './peer-args.mjs';
import { ScriptedChatModel } from './scripted-chat-model.mjs';

const args = parsePeerArgs();
const dir = mkdtempSync(join(tmpdir(), 'bench-langgraph-'));
const checkpointer = SqliteSaver.fromConnString(join(dir, 'checkpoints.db'));

const lookup = tool(runInstantTool, {
  name: instantTool.name,
  description: instantTool.description,
  schema: z.object({ query: z.string() }),
});
const agent = createReactAgent({
  llm: new ScriptedChatModel({ iterations: args.iterations }),
  tools: [lookup],
  checkpointer,
});

async function runOnce(iterations, label) {
  const state = await agent.invoke(
    { messages: [{ role: 'user', content: `benchmark ${label}` }] },
    // Each iteration is two super-steps (agent, tools) and the answer one more.
    { configurable: { thread_id: `${label}-${randomUUID()}` }, recursionLimit: 2 * iterations + 5 },
  );
  const last = state.messages.at(-1);
  const toolResults = state.messages.filter((m) => m.getType() === 'tool').length;
  if (last?.content !== finalAnswer || toolResults !== iterations) {
    throw new Error(
      `unexpected run result: ${toolResults} tool results, last message ${JSON.stringify(last?.content)}`,
    );
  }
}

log(`langgraph-sqlite: ${args.runs} runs x ${args.iterations} iterations, checkpoints in ${dir}`);
try {
  await measureRuns({
    name: 'langgraph-sqlite',
    version: `@langchain/langgraph ${packageVersion('@langchain/langgraph')}, checkpoint-sqlite ${packageVersion('@langchain/langgraph-checkpoint-sqlite')}`,
    iterations: args.iterations,
    runs: args.runs,
    runOnce,
  });
} finally {
  checkpointer.db.close();
  rmSync(dir, { recursive: true, force: true });
}
