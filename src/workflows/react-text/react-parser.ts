/**
 * Parser of text-protocol ReAct replies (docs/react-text.md). Pure and deterministic:
 * it runs in the workflow sandbox and never throws; a malformed reply is a `kind: 'error'` whose
 * message goes back to the model as the next Observation.
 *
 * Policy for ambiguous replies (docs/react-text.md has the same table):
 * | Case                                               | Decision                                            |
 * |----------------------------------------------------|-----------------------------------------------------|
 * | Label case, `**Action:**`, `### Thought:`, `Action 1:`, `action_input:`, full-width `：` | all accepted: labels are case-insensitive, at line start after indentation |
 * | `Answer:`                                          | same as `Final Answer:`                             |
 * | Label words in the middle of a line                | text, except `Action Input:` / `Final Answer:` on the `Action:` line |
 * | Text before the first label                        | part of the thought (with any `Thought:` fields)    |
 * | `Thought:` only, or no label at all                | error: missing Action or Final Answer               |
 * | Tool name in backticks, quotes, bold, `name()`, `name (remark)`, `name.` | unwrapped to `name`; first non-blank line only |
 * | `Action: Final Answer` + `Action Input: x`         | final answer x (the JSON string's value if quoted)  |
 * | `Observation:` after an Action, Input or Answer    | the model invented it: the reply is cut there       |
 * | `Observation:` before any Action or Answer         | ignored (not part of the thought)                   |
 * | Action (or Action Input) before a Final Answer     | error: both                                         |
 * | `Action:` + `Action Input:` after a Final Answer   | error: both; an `Action:` line alone is answer text |
 * | Several Action blocks                              | the first wins; the rest is ignored                 |
 * | Labels inside a code fence or an open JSON string  | not labels (so a `Final Answer:` in the input does not count) |
 * | Input that is fenced / a JSON object or array      | ends at the closing fence / bracket; the rest is commentary |
 * | Input that is not JSON                             | `input` is the raw string, quotes untouched         |
 * | Reply wrapped whole in one code fence              | unwrapped                                           |
 */
import { dropFenceDebris, namesFinalAnswer, readActionInput, toolNameOf } from './react-parser-input';
import { fieldText, scanReply, type FieldLabel, type Scan } from './react-parser-scan';

export type ParsedReAct =
  | { kind: 'action'; tool: string; input: unknown; rawInput: string; thought?: string }
  | { kind: 'final'; answer: string; thought?: string }
  | { kind: 'error'; message: string };

/** Observations for malformed replies; each names the label at fault and how to fix it. */
export const REACT_FORMAT_ERRORS = {
  empty:
    "Invalid Format: The reply is empty. Write 'Thought:', then either 'Action:' and 'Action Input:', or 'Final Answer:'.",
  missingActionOrAnswer:
    "Invalid Format: Missing 'Action:' or 'Final Answer:' after 'Thought:'. Call one tool with 'Action:' and 'Action Input:', or finish with 'Final Answer:'.",
  missingActionInput:
    "Invalid Format: Missing 'Action Input:' after 'Action:'. Put the tool's JSON arguments on the next line, after 'Action Input:'.",
  missingAction: "Invalid Format: Missing 'Action:' before 'Action Input:'. Name the tool on an 'Action:' line first.",
  actionAndAnswer:
    "Invalid Format: The reply has both an 'Action:' and a 'Final Answer:'. Either call one tool and wait for its Observation, or give only the Final Answer.",
  emptyToolName: "Invalid Format: 'Action:' names no tool. Write exactly one tool name from the list after 'Action:'.",
  emptyActionInput:
    "Invalid Format: 'Action Input:' is empty. Write the arguments as JSON; use {} for a tool without parameters.",
  emptyFinalAnswer: "Invalid Format: 'Final Answer:' is empty. Write your answer after 'Final Answer:'.",
} as const;

export function parseReAct(text: string): ParsedReAct {
  const scan = scanReply(text);
  const { fields } = scan;
  const indexOf = (label: FieldLabel): number => fields.findIndex((f) => f.label === label);
  const isCall = (label: FieldLabel): boolean => label === 'action' || label === 'input';
  const final = indexOf('final');
  const action = indexOf('action');
  const input = indexOf('input');

  if (final >= 0) {
    const callAfter = fields.some((f, i) => i > final && f.label === 'action' && fields[i + 1]?.label === 'input');
    if (callAfter || fields.slice(0, final).some((f) => isCall(f.label))) return error('actionAndAnswer');
    return answer(dropFenceDebris(fieldText(scan, final, true)), thoughtBefore(scan, final));
  }
  if (action < 0) {
    if (input >= 0) return error('missingAction');
    return error(scan.lines.some((l) => l.trim() !== '') ? 'missingActionOrAnswer' : 'empty');
  }
  if (input >= 0 && input < action) return error('missingAction');
  if (fields[action + 1]?.label !== 'input') return error('missingActionInput');

  const tool = toolNameOf(fieldText(scan, action));
  if (!tool) return error('emptyToolName');
  const { rawInput, input: value } = readActionInput(fieldText(scan, action + 1));
  if (!rawInput) return error('emptyActionInput');
  const thought = thoughtBefore(scan, action);
  if (namesFinalAnswer(tool)) return answer(typeof value === 'string' ? value.trim() : rawInput, thought);
  return withThought({ kind: 'action', tool, input: value, rawInput }, thought);
}

const error = (key: keyof typeof REACT_FORMAT_ERRORS): ParsedReAct => ({
  kind: 'error',
  message: REACT_FORMAT_ERRORS[key],
});

const answer = (text: string, thought: string): ParsedReAct =>
  text ? withThought({ kind: 'final', answer: text }, thought) : error('emptyFinalAnswer');

function withThought<T extends ParsedReAct>(result: T, thought: string): T {
  return thought ? { ...result, thought } : result;
}

/** The preamble and every `Thought:` field before field `end`, joined by newlines. */
function thoughtBefore(scan: Scan, end: number): string {
  return scan.fields
    .slice(0, end)
    .map((f, i) => (f.label === 'preamble' || f.label === 'thought' ? dropFenceDebris(fieldText(scan, i)) : ''))
    .filter((t) => t !== '')
    .join('\n');
}
