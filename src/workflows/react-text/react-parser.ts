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
import { ReActLabels } from '../../domain/model/reasoning-settings';
import {
  DEFAULT_LABEL_SET,
  fieldText,
  labelSet,
  scanReply,
  type FieldLabel,
  type LabelSet,
  type Scan,
} from './react-parser-scan';

export type ParsedReAct =
  | { kind: 'action'; tool: string; input: unknown; rawInput: string; thought?: string }
  | { kind: 'final'; answer: string; thought?: string }
  | { kind: 'error'; message: string };

/** Observations for malformed replies, in a run's own labels; each names the label at fault and how to fix it. */
export function reactFormatErrors(labels: ReActLabels) {
  const { thought, action, actionInput: input, finalAnswer: final } = labels;
  return {
    empty: `Invalid Format: The reply is empty. Write '${thought}:', then either '${action}:' and '${input}:', or '${final}:'.`,
    missingActionOrAnswer: `Invalid Format: Missing '${action}:' or '${final}:' after '${thought}:'. Call one tool with '${action}:' and '${input}:', or finish with '${final}:'.`,
    missingActionInput: `Invalid Format: Missing '${input}:' after '${action}:'. Put the tool's JSON arguments on the next line, after '${input}:'.`,
    missingAction: `Invalid Format: Missing '${action}:' before '${input}:'. Name the tool on an '${action}:' line first.`,
    actionAndAnswer: `Invalid Format: The reply has both an '${action}:' and a '${final}:'. Either call one tool and wait for its Observation, or give only the ${final}.`,
    emptyToolName: `Invalid Format: '${action}:' names no tool. Write exactly one tool name from the list after '${action}:'.`,
    emptyActionInput: `Invalid Format: '${input}:' is empty. Write the arguments as JSON; use {} for a tool without parameters.`,
    emptyFinalAnswer: `Invalid Format: '${final}:' is empty. Write your answer after '${final}:'.`,
  } as const;
}
type FormatErrors = ReturnType<typeof reactFormatErrors>;

/** The messages with the default labels. */
export const REACT_FORMAT_ERRORS: FormatErrors = reactFormatErrors(ReActLabels.parse({}));

/** A parser for a run's labels; parseReAct is the one for the default labels. */
export function reactParser(labels: ReActLabels): (text: string) => ParsedReAct {
  const set = labelSet(labels);
  const errors = reactFormatErrors(labels);
  return (text) => parseWith(text, set, errors);
}

export function parseReAct(text: string): ParsedReAct {
  return parseWith(text, DEFAULT_LABEL_SET, REACT_FORMAT_ERRORS);
}

function parseWith(text: string, set: LabelSet, errors: FormatErrors): ParsedReAct {
  const error = (key: keyof FormatErrors): ParsedReAct => ({ kind: 'error', message: errors[key] });
  const answer = (text: string, thought: string): ParsedReAct =>
    text ? withThought({ kind: 'final', answer: text }, thought) : error('emptyFinalAnswer');
  const scan = scanReply(text, set);
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
