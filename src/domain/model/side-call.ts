import type { ModelRequest } from './model-wire';

/**
 * A call beside the loop's conversation: the planner's, a reflection's, an observer's verdict. It
 * offers no tools, may not call any and starts a conversation of its own (no assistant message).
 * A loop turn always has its tools (text ReAct's in the prompt, and its first turn may call them)
 * or, asked to answer at last, replies the model already gave.
 */
export function isSideCall(request: Pick<ModelRequest, 'tools' | 'toolChoice' | 'messages'>): boolean {
  return (
    request.toolChoice === 'none' && request.tools.length === 0 && !request.messages.some((m) => m.role === 'assistant')
  );
}
