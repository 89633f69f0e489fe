/**
 * The offline model's verdicts (docs/planning.md), read from the prompts in
 * src/workflows/planning/verdicts/verdict-prompts.ts: the observer judges the last action by whether its
 * results were errors and learns the first result's gist; the goal check finds the goal met when
 * the plan has no open task (or there is no plan). Deterministic: the same prompt, the same reply.
 */

/** A result line of the observer's prompt: `  Result (ok|error): …`. */
const RESULT_LINE = /^ {2}Result \((ok|error)\): (.*)$/;
/** An action line of the observer's prompt: `- tool_name {…}`. */
const ACTION_LINE = /^- (\S+) /;
/** A task line of the verdict prompts' plan: `- t1 [pending] Describe…`. */
const TASK_LINE = /^- (\S+) \[(pending|in_progress|completed|failed|blocked)\] (.*)$/;

const GIST_CHARS = 160;

export function offlineObserverReply(prompt: string): string {
  const lines = prompt.split('\n');
  const results: Array<{ tool: string; ok: boolean; text: string }> = [];
  let tool = 'the tool';
  let inAction = false;
  for (const line of lines) {
    if (line === 'The action:') inAction = true;
    if (!inAction) continue;
    const action = ACTION_LINE.exec(line);
    if (action) tool = action[1]!;
    const result = RESULT_LINE.exec(line);
    if (result) results.push({ tool, ok: result[1] === 'ok', text: result[2]!.trim() });
  }
  const success = results.length > 0 && results.every((r) => r.ok);
  const first = results.find((r) => r.ok) ?? results[0];
  const learned = first
    ? `${first.tool} ${first.ok ? 'returned' : 'failed with'}: ${gist(first.text)}`
    : 'No result came back.';
  return JSON.stringify({ success, learned, unblocked: [], adjustment: '' });
}

export function offlineGoalCheckReply(prompt: string): string {
  const open = prompt
    .split('\n')
    .map((line) => TASK_LINE.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[2] !== 'completed')
    .map((m) => `${m[1]} (${m[3]!.replace(/ Result: .*$/, '')})`);
  return JSON.stringify(
    open.length === 0 ? { met: true, missing: '' } : { met: false, missing: `Open tasks: ${open.join('; ')}` },
  );
}

function gist(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= GIST_CHARS ? flat : `${flat.slice(0, GIST_CHARS - 1)}…`;
}
