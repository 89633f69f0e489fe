/**
 * Reading an AI SDK (LanguageModelV4) prompt the way the bare engine reads its messages, so both
 * give the scripted model the same conversationChars: every text, each tool call's name and JSON
 * input, each tool result's output.
 */
export function toolResultsIn(prompt) {
  let n = 0;
  for (const m of prompt) if (m.role === 'tool') n += m.content.filter((p) => p.type === 'tool-result').length;
  return n;
}

export function promptChars(prompt) {
  let chars = 0;
  for (const m of prompt) {
    if (typeof m.content === 'string') {
      chars += m.content.length;
      continue;
    }
    for (const part of m.content) chars += partChars(part);
  }
  return chars;
}

function partChars(part) {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return part.text.length;
    case 'tool-call':
      return part.toolName.length + JSON.stringify(part.input).length;
    case 'tool-result':
      return part.output.type === 'text' ? part.output.value.length : JSON.stringify(part.output.value ?? '').length;
    default:
      return 0;
  }
}
