import type { PlanningSettings, PlanTask } from '../../../domain';

export type PlanCheck = { ok: true; tasks: PlanTask[] } | { ok: false; problems: string[] };

const SHAPE =
  '{"tasks": [{"id": "t1", "description": "...", "dependencies": [], "required_tools": [], "estimated_complexity": "low"}]}';
const COMPLEXITIES: readonly string[] = ['low', 'medium', 'high'];

/**
 * Reads a planner's JSON into pending tasks, or lists every problem as a sentence the model can
 * act on in a repair call. `doneIds` are completed tasks kept from an earlier plan: a re-plan's
 * tasks may depend on them. Deterministic; never throws.
 */
export function validatePlan(
  raw: unknown,
  settings: Pick<PlanningSettings, 'maxTasks'>,
  doneIds: readonly string[] = [],
): PlanCheck {
  const list = isRecord(raw) ? raw['tasks'] : undefined;
  if (!Array.isArray(list)) {
    return { ok: false, problems: [`The reply must be one JSON object with a "tasks" array, like ${SHAPE}.`] };
  }
  if (list.length === 0)
    return { ok: false, problems: ['The "tasks" array is empty; the plan needs at least one task.'] };

  const problems: string[] = [];
  if (list.length > settings.maxTasks) {
    problems.push(
      `The plan has ${list.length} tasks but at most ${settings.maxTasks} are allowed; merge small steps into larger ones.`,
    );
  }
  const tasks = list.map((item, i) => readTask(item, i + 1, problems));
  const ids = tasks.map((t) => t.id).filter((id) => id !== '');
  let idsUnique = ids.length === tasks.length;
  for (const id of new Set(ids)) {
    const count = ids.filter((x) => x === id).length;
    if (count === 1) continue;
    problems.push(`The id "${id}" is used by ${count} tasks; every task needs its own id.`);
    idsUnique = false;
  }
  const known = new Set([...ids, ...doneIds]);
  const knownList = known.size > 0 ? [...known].join(', ') : 'none';
  tasks.forEach((task, i) => {
    const label = task.id === '' ? `Task ${i + 1}` : `Task "${task.id}"`;
    for (const dep of task.dependencies) {
      if (dep === task.id) problems.push(`${label} depends on itself; remove "${dep}" from its dependencies.`);
      else if (!known.has(dep))
        problems.push(`${label} depends on "${dep}", which is not a task in the plan (known ids: ${knownList}).`);
    }
  });
  // Cycles are only well defined when each id names exactly one task.
  if (idsUnique) {
    for (const cycle of findCycles(tasks)) {
      problems.push(
        `The dependencies form a cycle: ${cycle.join(' → ')} (each task depends on the next); remove one of these dependencies.`,
      );
    }
  }
  return problems.length === 0 ? { ok: true, tasks } : { ok: false, problems };
}

/** One task from model output; `required_tools` is what the prompt asks for, `requiredTools` is accepted too. */
function readTask(item: unknown, position: number, problems: string[]): PlanTask {
  const where = `Task ${position}`;
  if (!isRecord(item)) {
    problems.push(`${where} is not a JSON object; write each task as {"id": ..., "description": ...}.`);
    return { id: '', description: '', dependencies: [], requiredTools: [], status: 'pending' };
  }
  const id = readId(item['id']);
  if (id === undefined) problems.push(`${where} needs an "id": a short non-empty string such as "t${position}".`);
  const label = id === undefined ? where : `Task "${id}"`;
  const description = typeof item['description'] === 'string' ? item['description'].trim() : '';
  if (description === '') problems.push(`${label} needs a "description": a non-empty string saying what to do.`);
  const dependencies = readIdList(
    item['dependencies'],
    `${label} has invalid "dependencies": give a list of task ids, [] for none.`,
    problems,
  );
  const tools = item['required_tools'] ?? item['requiredTools'];
  const requiredTools = readIdList(
    tools,
    `${label} has invalid "required_tools": give a list of tool names, [] for none.`,
    problems,
  );
  const complexity = readComplexity(item['estimated_complexity'], label, problems);
  return {
    id: id ?? '',
    description,
    dependencies,
    requiredTools,
    status: 'pending',
    ...(complexity !== undefined ? { complexity } : {}),
  };
}

/** Optional (plans from before it was asked have none); anything but low, medium or high is a problem. */
function readComplexity(value: unknown, label: string, problems: string[]): PlanTask['complexity'] {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (text !== undefined && COMPLEXITIES.includes(text)) return text as PlanTask['complexity'];
  problems.push(`${label} has an invalid "estimated_complexity": give "low", "medium" or "high".`);
  return undefined;
}

/** Models often number tasks; a finite number is read as its string form. */
function readId(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return value.trim();
}

/** A missing list is empty; repeats are dropped. */
function readIdList(value: unknown, problem: string, problems: string[]): string[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value.map(readId) : [undefined];
  if (items.some((x) => x === undefined)) {
    problems.push(problem);
    return [];
  }
  return [...new Set(items as string[])];
}

/** Each cycle met by a depth-first walk, as ids from a task back to itself. Ids must be unique. */
function findCycles(tasks: readonly PlanTask[]): string[][] {
  const deps = new Map(tasks.map((t) => [t.id, t.dependencies]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const cycles: string[][] = [];
  const visit = (id: string): void => {
    state.set(id, 'open');
    path.push(id);
    for (const dep of deps.get(id) ?? []) {
      if (!deps.has(dep) || dep === id) continue;
      const seen = state.get(dep);
      if (seen === 'open') cycles.push([...path.slice(path.indexOf(dep)), dep]);
      else if (seen === undefined) visit(dep);
    }
    path.pop();
    state.set(id, 'done');
  };
  for (const task of tasks) if (!state.has(task.id)) visit(task.id);
  return cycles;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
