import type { ChatHistoryItem } from 'node-llama-cpp' with { 'resolution-mode': 'import' };
import type { ModelRequest, ModelTool } from '../../../domain';
import { renderToolCall } from './tool-reply';

/**
 * Pure: a whole `ModelRequest` as node-llama-cpp chat history, ending with an empty model turn
 * to generate. Each call is stateless; the model's chat template (ChatML for SmolLM2) is applied
 * by node-llama-cpp. Tool calls and results are written as text, in the JSON shape the tool
 * grammar makes the model write, so earlier turns show it the format it must keep.
 */
export function toChatHistory(request: ModelRequest, toolsOffered: boolean): ChatHistoryItem[] {
  const system = toolsOffered ? `${request.system}\n\n${toolInstructions(request.tools)}`.trim() : request.system;
  const history: ChatHistoryItem[] = system === '' ? [] : [{ type: 'system', text: system }];
  const toolNames = new Map<string, string>();
  for (const message of request.messages) {
    if (message.role === 'assistant') {
      const parts: string[] = [];
      let thought = '';
      for (const block of message.content) {
        if (block.type === 'text') thought += block.text;
        else if (block.type === 'tool_use') {
          toolNames.set(block.id, block.name);
          parts.push(renderToolCall(thought.trim(), block.name, block.input));
          thought = '';
        }
      }
      if (thought.trim() !== '') parts.unshift(thought.trim());
      history.push({ type: 'model', response: [parts.join('\n')] });
    } else {
      const parts = message.content.map((block) =>
        block.type === 'text'
          ? block.text
          : `${block.isError ? 'Error from' : 'Result of'} ${toolNames.get(block.toolUseId) ?? 'the tool'}: ${block.content}`,
      );
      history.push({ type: 'user', text: parts.join('\n') });
    }
  }
  history.push({ type: 'model', response: [] });
  return history;
}

/** What the system prompt says about tools when the reply is held to the tool grammar. */
function toolInstructions(tools: readonly ModelTool[]): string {
  const list = tools.map((t) => `- ${t.name}: ${t.description} Arguments: ${JSON.stringify(t.inputSchema)}`);
  return [
    'You can use these tools:',
    ...list,
    'Reply with one JSON object. To use a tool: {"thought": "<one short sentence>", "tool": "<tool name>", "arguments": {...}}.',
    'When you know the answer: {"thought": "<one short sentence>", "answer": "<the answer>"}.',
  ].join('\n');
}
