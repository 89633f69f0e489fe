/**
 * Reading the OpenAI Agents input items a model is given the way the bare engine reads its
 * messages, so both give the scripted model the same conversationChars: every text, each function
 * call's name and JSON arguments, each function result's output.
 */
export const toolResultsIn = (items) => items.filter((item) => item.type === 'function_call_result').length;

export function inputChars(items) {
  let chars = 0;
  for (const item of items) chars += itemChars(item);
  return chars;
}

function itemChars(item) {
  if (item.type === 'function_call') return item.name.length + item.arguments.length;
  if (item.type === 'function_call_result') return outputChars(item.output);
  // A message (type 'message' or left out): user content may be a plain string.
  if (typeof item.content === 'string') return item.content.length;
  return (item.content ?? []).reduce((sum, part) => sum + (part.text?.length ?? 0), 0);
}

/** A tool's output is a string or a { type: 'text', text } part; the lookup tool returns text. */
const outputChars = (output) => (typeof output === 'string' ? output.length : (output.text?.length ?? 0));
