import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { getConfig } from '@langchain/langgraph';
import { modelDelay, modelTurn } from '../lib/loop-script.mjs';

/**
 * A LangChain chat model driven by the shared loop script: it reads the messages it is given
 * (tool results seen, total content chars), sleeps modelDelay and returns the thought with the
 * lookup call, or the answer. Stateless, so one instance serves every thread at once.
 */
export class ScriptedLoopModel extends BaseChatModel {
  /** @param {{ iterations: number, modelDelayMs: number, stepMarks: { mark: Function } }} options */
  constructor({ iterations, modelDelayMs, stepMarks }) {
    super({});
    this.iterations = iterations;
    this.modelDelayMs = modelDelayMs;
    this.stepMarks = stepMarks;
  }

  _llmType() {
    return 'scripted-loop';
  }

  /** The script already knows its one tool; binding changes nothing. */
  bindTools(_tools) {
    return this;
  }

  async _generate(messages) {
    // The node's config rides along in AsyncLocalStorage; its thread_id is the run id.
    const config = getConfig()?.configurable;
    const runId = config?.thread_id;
    // A run may ask for fewer iterations than the graph was built for (the shorter warm-up).
    const iterations = config?.iterations ?? this.iterations;
    const toolResults = messages.filter((m) => ToolMessage.isInstance(m)).length;
    this.stepMarks.mark(runId, 'model', toolResults, 'start');
    await modelDelay(this.modelDelayMs);
    const conversationChars = messages.reduce((sum, m) => sum + contentChars(m.content), 0);
    const turn = modelTurn({ toolResults, iterations, conversationChars });
    const usage_metadata = {
      input_tokens: turn.inputTokens,
      output_tokens: turn.outputTokens,
      total_tokens: turn.inputTokens + turn.outputTokens,
    };
    const message = turn.call
      ? new AIMessage({
          content: turn.thought,
          tool_calls: [
            { id: `call_${turn.call.input.n}`, name: turn.call.name, args: turn.call.input, type: 'tool_call' },
          ],
          usage_metadata,
        })
      : new AIMessage({ content: turn.answer, usage_metadata });
    this.stepMarks.mark(runId, 'model', toolResults, 'end');
    return { generations: [{ text: message.content, message }] };
  }
}

/** Message content is a string here; content blocks count their text. */
function contentChars(content) {
  if (typeof content === 'string') return content.length;
  return content.reduce((sum, block) => sum + (typeof block.text === 'string' ? block.text.length : 0), 0);
}
