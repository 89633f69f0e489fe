/**
 * The conversation the handler keeps between steps (rebuilt from the journal on a replay) and
 * hands to the model step, as a chat API would receive it.
 */
export const userTask = (iterations) => ({
  role: 'user',
  content: `Call the lookup tool ${iterations} times, then say how many times you called it.`,
});

export const assistantMessage = (turn) => ({
  role: 'assistant',
  content: turn.thought,
  ...(turn.call ? { toolCall: turn.call } : {}),
});

export const toolMessage = (n, content) => ({ role: 'tool', toolCallId: `call-${n}`, content });

/** What the model would read: every message's text, the tool calls as JSON. */
export const charsOf = (conversation) =>
  conversation.reduce((sum, m) => sum + m.content.length + (m.toolCall ? JSON.stringify(m.toolCall).length : 0), 0);

export const toolResultsIn = (conversation) => conversation.filter((m) => m.role === 'tool').length;
