import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { finalAnswer, instantTool } from './instant-tool.mjs';

/**
 * A LangChain chat model scripted like Thoughtline's: it asks for the instant tool until the
 * conversation holds `iterations` tool results, then answers. The turn is derived from the
 * messages, so one instance serves every thread.
 */
export class ScriptedChatModel extends BaseChatModel {
  constructor({ iterations }) {
    super({});
    this.iterations = iterations;
  }

  _llmType() {
    return 'scripted';
  }

  /** The script already knows its one tool; binding changes nothing. */
  bindTools(_tools) {
    return this;
  }

  async _generate(messages) {
    const seen = messages.filter((m) => ToolMessage.isInstance(m)).length;
    const usage_metadata = { input_tokens: 100, output_tokens: 20, total_tokens: 120 };
    const message =
      seen < this.iterations
        ? new AIMessage({
            content: '',
            tool_calls: [
              { id: `call_${seen + 1}`, name: instantTool.name, args: { ...instantTool.input }, type: 'tool_call' },
            ],
            usage_metadata,
          })
        : new AIMessage({ content: finalAnswer, usage_metadata });
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}
