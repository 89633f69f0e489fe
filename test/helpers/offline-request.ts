import {
  AgentInput,
  type AssistantBlock,
  type ModelMessage,
  type ModelRequest,
  type ModelTool,
} from '../../src/domain';
import { finishTool, giveUpTool, systemPrompt } from '../../src/workflows/loop/prompt';

/** Requests as the loop sends them to the offline model, for tests of its rules. */

export const tool = (name: string, description: string, properties: Record<string, unknown> = {}): ModelTool => ({
  name,
  description,
  inputSchema: { type: 'object', properties, required: Object.keys(properties) },
});
const names = AgentInput.parse({
  task: 'x',
  finishToolName: 'finish',
  giveUpToolName: 'give_up',
  finishToolDescription: 'Give the final answer',
});

/** A native-tool-calling request as the loop sends it, with the injected finish and give-up tools. */
export function request(task: string, tools: ModelTool[], later: ModelMessage[] = []): ModelRequest {
  return {
    provider: 'anthropic',
    model: 'offline',
    system: systemPrompt(names),
    messages: [{ role: 'user', content: [{ type: 'text', text: task }] }, ...later],
    tools: [...tools, finishTool(names), giveUpTool(names)],
    toolChoice: 'auto',
    maxTokens: 1024,
  };
}
export const calls = (blocks: AssistantBlock[]) =>
  blocks.flatMap((b) => (b.type === 'tool_use' ? [{ name: b.name, input: b.input }] : []));
export const turn = (
  id: string,
  name: string,
  input: Record<string, unknown>,
  content: string,
  isError = false,
): ModelMessage[] => [
  { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
  { role: 'user', content: [{ type: 'tool_result', toolUseId: id, content, isError }] },
];
