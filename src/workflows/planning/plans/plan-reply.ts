/**
 * The JSON object in a planner's reply: bare, in a ```json fence, or wrapped in prose. Tries each
 * `{` in order and returns the first balanced object that parses; undefined when there is none.
 */
export function readPlanReply(text: string): unknown {
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = balancedEnd(text, start);
    if (end === undefined) continue;
    try {
      return JSON.parse(text.slice(start, end + 1)) as unknown;
    } catch {
      // Not JSON (prose in braces, a trailing comma): an object nested inside may still parse.
    }
  }
  return undefined;
}

/** Index of the `}` closing the `{` at `start`, skipping braces inside strings. */
function balancedEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === '{') {
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return undefined;
}
