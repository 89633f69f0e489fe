import type { AgentResult, ReasoningStep } from '../shared';

const useColour = process.stderr.isTTY && !process.env['NO_COLOR'];
const paint = (code: number) => (text: string) => (useColour ? `\u001b[${code}m${text}\u001b[0m` : text);
const dim = paint(2);
const cyan = paint(36);
const green = paint(32);
const red = paint(31);
const yellow = paint(33);

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const oneLine = (value: unknown, max = 160) => clip((typeof value === 'string' ? value : JSON.stringify(value)).replace(/\s+/g, ' '), max);

/** One terminal line per step, for people watching a run live. */
export function renderStep(step: ReasoningStep): string {
  const n = dim(`${String(step.stepNumber).padStart(3)} `);
  if (step.visibility.level === 'hidden') return `${n}${dim(`(hidden ${step.type})`)}`;
  switch (step.type) {
    case 'thinking':
      return `${n}${cyan('Thought')}      ${clip(step.thought, 400)}`;
    case 'tool_call':
      return step.toolCall.toolType === 'llm'
        ? `${n}${dim(`Model call   ${step.toolCall.toolName} (iteration ${step.iteration})`)}${typeof step.toolCall.arguments['note'] === 'string' ? ` ${yellow(step.toolCall.arguments['note'])}` : ''}`
        : `${n}${yellow('Action')}       ${step.toolCall.toolName} ${oneLine(step.toolCall.arguments)}`;
    case 'tool_result': {
      const r = step.toolResult;
      if (step.model) {
        const u = step.usage;
        const tokens = u ? `${u.inputTokens} in / ${u.outputTokens} out` : '';
        return `${n}${dim(`Model reply  ${tokens} · $${(step.costUsd ?? 0).toFixed(4)} · ${r.durationMs} ms`)}`;
      }
      return r.success
        ? `${n}${green('Observation')}  ${oneLine(r.result)}${r.truncated ? dim(' (truncated)') : ''}`
        : `${n}${red('Observation')}  ${oneLine(r.error ?? 'failed', 300)}`;
    }
    case 'synthesis':
      return `${n}${green('Final answer')} ${step.synthesis.conclusion}`;
  }
}

/** Streaming model text, dimmed; `first` opens its line with a marker under the step column. */
export function renderLive(kind: 'text' | 'thinking', text: string, first: boolean): string {
  const marker = first ? `    ${dim(kind === 'thinking' ? '(thinking) ' : '… ')}` : '';
  return `${marker}${dim(text)}`;
}

export function renderSummary(result: AgentResult): string {
  const u = result.usage;
  const status = result.success ? green(result.terminationReason) : red(result.terminationReason);
  return [
    `Result: ${status} after ${result.iterations} iterations, ${result.modelCalls} model calls, ${result.toolCalls} tool calls`,
    `Tokens: ${u.inputTokens} in, ${u.outputTokens} out, ${u.cacheReadTokens} cache read, ${u.cacheWriteTokens} cache write`,
    `Cost:   $${result.costUsd.toFixed(6)} · ${result.executionTimeMs} ms`,
    ...(result.error ? [red(`Error:  ${result.error}`)] : []),
  ].join('\n');
}
