// The floor: the same ReAct loop in plain Node with no Temporal and no framework. An async
// function calls an in-process mock model and the instant tool; nothing is persisted.
import { finalAnswer, instantTool, runInstantTool } from './instant-tool.mjs';
import { log, measureRuns } from './measure-runs.mjs';
import { parsePeerArgs } from './peer-args.mjs';

/** Asks for the tool until it has seen `iterations` tool results, then answers. */
async function mockModel(messages, iterations) {
  const seen = messages.filter((m) => m.role === 'tool').length;
  if (seen < iterations) {
    return { toolCall: { id: `call_${seen + 1}`, name: instantTool.name, input: instantTool.input } };
  }
  return { text: finalAnswer };
}

const tools = { [instantTool.name]: runInstantTool };

async function runAgent(iterations, prompt) {
  const messages = [{ role: 'user', content: prompt }];
  for (;;) {
    const reply = await mockModel(messages, iterations);
    if (!reply.toolCall) return reply.text;
    messages.push({ role: 'assistant', toolCall: reply.toolCall });
    const tool = tools[reply.toolCall.name];
    const result = await tool(reply.toolCall.input);
    messages.push({ role: 'tool', toolCallId: reply.toolCall.id, content: result });
  }
}

const args = parsePeerArgs();
log(`plain-node: ${args.runs} runs x ${args.iterations} iterations`);
await measureRuns({
  name: 'plain-node',
  version: `node ${process.versions.node}`,
  iterations: args.iterations,
  runs: args.runs,
  runOnce: (iterations, label) => runAgent(iterations, `benchmark ${label}`),
});
