import type { TaskStatus } from '../../domain';
import type { DashboardState, DashboardSubAgent } from './dashboard-state';
import { clipWidth, fitWidth, plainLine, textWidth, wrapWidth } from './text-width';
import { counted } from '../../domain/text/counted';

export interface ScreenSize {
  width: number;
  height: number;
  /** SGR colours (only the codes terminal-safe.ts keeps: 0, 2, 31, 32, 33, 36). */
  color: boolean;
  /** For the elapsed time in the title. */
  nowMs: number;
}

/** The box is never wider than this, however wide the terminal: long rows are hard to read. */
const MAX_BOX_WIDTH = 110;
const THOUGHT_LINES = 4;

const MARK: Record<TaskStatus, string> = { completed: '✓', in_progress: '▶', pending: '⋯', failed: '✗', blocked: '⊘' };
const LABEL: Record<TaskStatus, string> = {
  completed: 'COMPLETED',
  in_progress: 'IN PROGRESS',
  pending: 'PENDING',
  failed: 'FAILED',
  blocked: 'BLOCKED',
};
const COLOUR: Record<TaskStatus, number> = { completed: 32, in_progress: 33, pending: 2, failed: 31, blocked: 31 };

/** A row's text, plain, and the colour to paint it (undefined: none). */
interface Row {
  text: string;
  colour?: number;
}

/** A section of the box; `more` says how a clipped section ends ("+3 more"), when it can be clipped. */
interface Section {
  rows: Row[];
  /** Rows that must stay when the screen is short (the rest may go, replaced by a "+N more" row). */
  keep: number;
  more?: (hidden: number) => string;
}

export const progressBar = (done: number, total: number, width: number): string => {
  const filled = total > 0 ? Math.round((done / total) * width) : 0;
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
};

const elapsed = (ms: number): string => {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

const usd = (n: number): string => `$${n.toFixed(4)}`;
const count = (n: number): string => n.toLocaleString('en-US');

function headerSection(state: DashboardState, inner: number): Section {
  const plan = state.plan;
  // The maximum comes with the first status read; a run that ended before one shows none.
  const iteration = `Iteration ${state.iteration}${state.maxIterations !== undefined ? `/${state.maxIterations}` : ''}`;
  let progress = `Steps: ${state.steps}`;
  if (plan) {
    const percent = Math.round((plan.completed / plan.total) * 100);
    const head = `${iteration} | Progress: ${percent}% `;
    const tail = ` ${plan.completed}/${counted(plan.total, 'task')}`;
    const barWidth = Math.max(0, Math.min(30, inner - textWidth(head) - textWidth(tail) - 2));
    progress = barWidth >= 5 ? `[${progressBar(plan.completed, plan.total, barWidth)}]${tail}` : tail.trim();
    return {
      rows: [
        { text: `Goal: ${plainLine(state.goal)}` },
        { text: `${head}${progress}` },
        statusRow(state),
        ...warningRows(state, inner),
      ],
      keep: 2,
    };
  }
  return {
    rows: [
      { text: `Goal: ${plainLine(state.goal)}` },
      { text: `${iteration} | ${progress}` },
      statusRow(state),
      ...warningRows(state, inner),
    ],
    keep: 2,
  };
}

/** At most three rows of a warning, in yellow, under the status; its own lines kept (commands to copy). */
const warningRows = (state: DashboardState, inner: number): Row[] =>
  (state.warning ?? '')
    .split('\n')
    .flatMap((line) => wrapWidth(plainLine(line), inner - 2))
    .slice(0, 3)
    .map((text, i) => ({ text: `${i === 0 ? '!' : ' '} ${text}`, colour: 33 }));

function statusRow(state: DashboardState): Row {
  if (state.outcome)
    return {
      text: `Status: ended (${state.outcome.reason})`,
      colour: state.outcome.success ? 32 : 31,
    };
  return { text: `Status: ${state.runStatus ?? 'starting'}`, colour: 2 };
}

function tasksSection(state: DashboardState, inner: number): Section | undefined {
  const plan = state.plan;
  if (!plan) return undefined;
  const rows = plan.tasks.map((t): Row => {
    const status: TaskStatus = t.status === 'pending' && t.id === plan.current ? 'in_progress' : t.status;
    const after = t.dependencies.length ? `  after ${t.dependencies.map(plainLine).join(', ')}` : '';
    const label = `[${LABEL[status]}]`;
    const left = `${MARK[status]} ${plainLine(t.id)}: ${plainLine(t.description)}`;
    // The label keeps its column; the description gives way first, then the dependencies.
    const room = inner - textWidth(label) - 1;
    const afterRoom = Math.min(textWidth(after), Math.floor(room / 3));
    const body =
      textWidth(left) + textWidth(after) <= room
        ? `${left}${after}`
        : `${clipWidth(left, room - afterRoom)}${clipWidth(after, afterRoom)}`;
    return { text: `${fitWidth(body, room)} ${label}`, colour: COLOUR[status] };
  });
  return { rows: [{ text: `Tasks (plan v${plan.version}):` }, ...rows], keep: 2, more: (n) => `  +${n} more` };
}

function thoughtSection(state: DashboardState, inner: number): Section | undefined {
  const rows: Row[] = [];
  if (state.thought) {
    const text = plainLine(state.thought);
    // A streaming reply shows its end, a landed thought its start.
    const lines = wrapWidth(state.thoughtLive ? `…${text.slice(-inner * THOUGHT_LINES)}` : `"${text}"`, inner - 1);
    const shown = state.thoughtLive ? lines.slice(-THOUGHT_LINES) : lines.slice(0, THOUGHT_LINES);
    if (!state.thoughtLive && lines.length > THOUGHT_LINES)
      shown[THOUGHT_LINES - 1] = clipWidth(`${shown[THOUGHT_LINES - 1]} …`, inner - 1);
    rows.push(
      { text: state.thoughtLive ? 'Model replying:' : 'Current thought:' },
      ...shown.map((l) => ({ text: ` ${l}` })),
    );
  }
  if (state.note) rows.push({ text: clipWidth(plainLine(state.note), inner), colour: 36 });
  return rows.length ? { rows, keep: Math.min(rows.length, 2), more: () => ' …' } : undefined;
}

/** Once the run ended, its answer (or error) in the thought's place, its first lines; the whole text follows the box (renderEnding). */
function endingSection(state: DashboardState, inner: number): Section | undefined {
  const ending = state.ending;
  if (!ending) return undefined;
  const lines = wrapLines(ending.text, inner - 1);
  const shown = lines.slice(0, THOUGHT_LINES);
  if (lines.length > THOUGHT_LINES) shown[THOUGHT_LINES - 1] = clipWidth(`${shown[THOUGHT_LINES - 1]} …`, inner - 1);
  return {
    rows: [
      { text: `${ending.title}:`, colour: state.outcome?.success ? 32 : 31 },
      ...shown.map((l) => ({ text: ` ${l}` })),
    ],
    keep: Math.min(lines.length + 1, 2),
    more: () => ' …',
  };
}

/** Untrusted text wrapped to `width`, its own line breaks kept (an answer's paragraphs and lists), each line inert. */
function wrapLines(text: string, width: number): string[] {
  const lines = text.split('\n').flatMap((line) => {
    const plain = plainLine(line);
    return plain === '' ? [''] : wrapWidth(plain, width);
  });
  // Runs of blank lines fold to one, and none is kept at either end.
  return lines.filter((line, i) => line !== '' || (i > 0 && i < lines.length - 1 && lines[i - 1] !== ''));
}

/**
 * The ended run's answer (or error) in full, for the scrollback under the last frame: its title,
 * then every line of it wrapped to the box's width, inert, no colour but the title's.
 */
export function renderEnding(state: DashboardState, size: Pick<ScreenSize, 'width' | 'color'>): string[] {
  const ending = state.ending;
  if (!ending) return [];
  const width = Math.max(20, Math.min(size.width, MAX_BOX_WIDTH));
  const title = paint(state.outcome?.success ? 32 : 31, `${ending.title}:`, size.color);
  return [title, ...wrapLines(ending.text, width)];
}

function actionSection(state: DashboardState): Section | undefined {
  const a = state.action;
  if (!a) return undefined;
  const how =
    a.state === 'running'
      ? 'running'
      : `${a.state === 'done' ? '✓' : '✗'} ${a.durationMs !== undefined ? `${a.durationMs} ms` : ''}`.trim();
  return {
    rows: [
      {
        text: `Action: Using tool [${plainLine(a.tool)}] ${plainLine(a.args)} (${how})`,
        colour: a.state === 'failed' ? 31 : 33,
      },
    ],
    keep: 1,
  };
}

function subAgentRow(s: DashboardSubAgent): Row {
  const mark = s.status === 'running' ? '▶' : s.status === 'completed' ? '✓' : '✗';
  const parts = [
    s.iteration !== undefined
      ? `iteration ${s.iteration}${s.maxIterations !== undefined ? `/${s.maxIterations}` : ''}`
      : '',
    s.plan
      ? `progress ${Math.round((s.plan.completed / s.plan.total) * 100)}% [${progressBar(s.plan.completed, s.plan.total, 10)}]`
      : '',
    s.costUsd !== undefined ? usd(s.costUsd) : '',
  ].filter(Boolean);
  return {
    text: `${mark} ${plainLine(s.agentName)} ${s.status}${parts.length ? ` · ${parts.join(' · ')}` : ''}`,
    colour: s.status === 'running' ? 33 : s.status === 'completed' ? 32 : 31,
  };
}

function subAgentsSection(state: DashboardState): Section | undefined {
  if (!state.subAgents.length) return undefined;
  return {
    rows: [{ text: `Sub-agents (${state.subAgents.length}):` }, ...state.subAgents.map(subAgentRow)],
    keep: 2,
    more: (n) => `  +${n} more`,
  };
}

function costSection(state: DashboardState): Section {
  const tokens = state.inputTokens + state.outputTokens;
  return {
    rows: [
      {
        text: `Cost so far: ${usd(state.costUsd)} · ${count(tokens)} tokens (${count(state.inputTokens)} in, ${count(state.outputTokens)} out) · ${counted(state.steps, 'step')}`,
      },
    ],
    keep: 1,
  };
}

/**
 * Clips sections until they fit `rows` rows: first each flexible section down to its `keep`
 * rows (longest first, ending in its "+N more"), then whole sections from the end but the first.
 */
function fit(sections: Section[], rows: number): Section[] {
  const total = (list: Section[]) => list.reduce((n, s) => n + s.rows.length, 0) + list.length - 1;
  let list = sections.map((s) => ({ ...s, rows: [...s.rows] }));
  while (total(list) > rows) {
    const clippable = list
      .filter((s) => s.more && s.rows.length > s.keep)
      .sort((a, b) => b.rows.length - a.rows.length)[0];
    if (clippable) {
      const over = total(list) - rows;
      // One row more than the overflow: the "+N more" row takes its place.
      const cut = Math.min(over + 1, clippable.rows.length - clippable.keep);
      const hidden = clippable.rows.splice(clippable.rows.length - cut, cut).length;
      clippable.rows.push({ text: clippable.more!(hidden), colour: 2 });
      clippable.more = undefined;
      continue;
    }
    if (list.length <= 1) break;
    list = list.slice(0, -1);
  }
  return list;
}

const paint = (colour: number | undefined, text: string, on: boolean): string =>
  on && colour !== undefined ? `\x1b[${colour}m${text}\x1b[0m` : text;

/**
 * The dashboard as lines, each exactly `min(width, 110)` columns, never more lines than
 * `height`. Pure: every untrusted text goes through plainLine (terminal-safe, no escape
 * sequences), and the only escape sequences in the output are its own colours when `color`.
 */
export function renderDashboard(state: DashboardState, size: ScreenSize): string[] {
  const width = Math.max(20, Math.min(size.width, MAX_BOX_WIDTH));
  const inner = width - 4;
  const sections = [
    headerSection(state, inner),
    tasksSection(state, inner),
    // Once the run ended, its answer takes the thought's place.
    state.ending ? endingSection(state, inner) : thoughtSection(state, inner),
    actionSection(state),
    subAgentsSection(state),
    costSection(state),
  ].filter((s): s is Section => s !== undefined);
  // The cost line always shows: it goes last in the box but is fitted before the optional ones.
  const cost = sections.pop()!;
  const fitted = [...fit(sections, Math.max(1, size.height - 2 - 2)), cost];
  const title = `─ Thoughtline · ${plainLine(state.workflowId)} `;
  const clock = ` ${elapsed(size.nowMs - state.startedAtMs)} ─`;
  const titleRoom = width - 2 - textWidth(clock);
  const top = `┌${clipWidth(title, titleRoom)}${'─'.repeat(Math.max(0, titleRoom - textWidth(clipWidth(title, titleRoom))))}${clock}┐`;
  const rule = `├${'─'.repeat(width - 2)}┤`;
  const lines = [paint(36, top, size.color)];
  fitted.forEach((section, i) => {
    if (i > 0) lines.push(paint(36, rule, size.color));
    for (const row of section.rows)
      lines.push(
        `${paint(36, '│', size.color)} ${paint(row.colour, fitWidth(row.text, inner), size.color)} ${paint(36, '│', size.color)}`,
      );
  });
  lines.push(paint(36, `└${'─'.repeat(width - 2)}┘`, size.color));
  return lines.slice(0, Math.max(1, size.height));
}
