/**
 * The bare engine's messages, in the shape the chat APIs use: the user's task, then per iteration
 * an assistant message (the thought as content, the tool call beside it) and a tool message (the
 * observation). The scripted model is given exactly these.
 */
export const toolResultsIn = (messages) => messages.filter((m) => m.role === 'tool').length;

/** Characters the model reads: every content, plus each tool call's name and JSON input. */
export function conversationChars(messages) {
  let chars = 0;
  for (const m of messages) {
    chars += m.content.length;
    if (m.toolCall) chars += m.toolCall.name.length + JSON.stringify(m.toolCall.input).length;
  }
  return chars;
}
