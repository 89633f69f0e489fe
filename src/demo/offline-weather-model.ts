import { readRequest, type RequestView, type SeenCall } from '../offline/read-request';
import { OFFLINE_MARK } from '../offline/offline-summary';
import { ASKS_FIRST } from '../offline/offline-turn';
import type { AssistantBlock, ModelRequest } from '../domain';
import { plannerSystem } from '../workflows/planning/plans/plan-prompts';
import { DEMO_CITIES } from './weather-tool';

/** The team demo's sub-agent (see `thoughtline demo --team`). */
export const WEATHER_AGENT = 'weather_agent';
/** How the lead words a weather agent's task (lower-cased), so the agent knows its own run. */
const AGENT_TASK_PREFIX = 'get the current weather in';

type Reading = { ok: true; temperature: number; units: string; conditions: string } | { ok: false; error: string };

const titleCase = (city: string) => city.replace(/\b\w/g, (c) => c.toUpperCase());
const text = (t: string): AssistantBlock => ({ type: 'text', text: t });
/** A call numbered after the conversation's calls (`nth` within the reply), so ids are unique and replay the same. */
const call = (view: RequestView, name: string, input: Record<string, unknown>, nth = 0): AssistantBlock => ({
  type: 'tool_use',
  id: `toolu_weather_${view.calls.length + nth + 1}`,
  name,
  input,
});

/**
 * The weather demo's script, as a specialist of the offline model (src/offline): for a task that
 * names demo cities, with the weather tool or the weather agent offered and no plan or question
 * in play, it looks up each city (through sub-agents, in parallel, when the team demo offers
 * them), then compares the readings, saving a report first when asked. A reading that failed is
 * reported as failed, never printed as a temperature; when none came back the run gives up.
 * Anything else (no demo city, a plan, a person asked or to be asked) is left to the offline
 * model's general rules.
 */
export function weatherDemoTurn(request: ModelRequest): AssistantBlock[] | undefined {
  if (request.toolChoice === 'none' || request.tools.length === 0 || request.system === plannerSystem())
    return undefined;
  const view = readRequest(request);
  const offered = new Set(view.tools.map((t) => t.name));
  const task = view.task.toLowerCase();
  const cities = citiesIn(task);
  if (
    cities.length === 0 ||
    view.control.update ||
    involvesPerson(view) ||
    !view.control.finish ||
    !view.control.giveUp
  )
    return undefined;
  if (!offered.has('get_weather') && !offered.has(WEATHER_AGENT)) return undefined;
  const readings = readingsSoFar(view.calls);
  const next = cities.filter((c) => !readings.has(c));
  // With a weather agent on offer (the team demo), every city goes to its own sub-agent, all in one turn.
  if (next.length > 0 && cities.length > 1 && offered.has(WEATHER_AGENT)) {
    return [
      text(`Delegating ${next.length} cities to weather agents, in parallel.`),
      ...next.map((c, i) =>
        call(view, WEATHER_AGENT, { task: `Get the current weather in ${titleCase(c)}, in celsius.` }, i),
      ),
    ];
  }
  if (next.length > 0) {
    if (!offered.has('get_weather')) return undefined;
    const thought =
      readings.size === 0
        ? `I need current weather for ${cities.map(titleCase).join(' and ')}. Starting with ${titleCase(next[0]!)}.`
        : `Now ${titleCase(next[0]!)}.`;
    return [text(thought), call(view, 'get_weather', { location: titleCase(next[0]!), units: 'celsius' })];
  }
  const worked = cities.filter((c) => readings.get(c)?.ok);
  const failures = cities.flatMap((c) => {
    const r = readings.get(c)!;
    return r.ok ? [] : [`no reading for ${titleCase(c)} (${r.error.slice(0, 200)})`];
  });
  if (worked.length === 0)
    return [
      text('No reading came back.'),
      call(view, view.control.giveUp, {
        reason: `${OFFLINE_MARK} No weather reading came back: ${failures.join('; ')}.`,
      }),
    ];
  // A weather agent's own run (its task is the lead's wording): the reading itself is the answer.
  if (task.startsWith(AGENT_TASK_PREFIX))
    return [
      text('Reading taken.'),
      call(view, view.control.finish, { result: JSON.stringify(readingOf(view.calls, cities[0]!)) }),
    ];
  const comparison = `${compare(worked, readings)}${failures.length > 0 ? ` But ${failures.join('; ')}.` : ''}`;
  // Asked to save: one save_report call (it waits for a person's approval), then finish whatever came back.
  if (/\bsave\b/.test(task) && offered.has('save_report') && !view.calls.some((c) => c.name === 'save_report')) {
    return [
      text('Saving the comparison, as asked.'),
      call(view, 'save_report', { name: 'weather.md', content: `# Weather\n\n${comparison}` }),
    ];
  }
  return [
    text('I have every reading I need.'),
    call(view, view.control.finish, { result: `${OFFLINE_MARK} ${comparison}` }),
  ];
}

/**
 * Whether a person is part of this run's work: the task asks for their word first, or a question
 * was asked. Only then do the general rules take over; a question tool merely offered (every run
 * A2A, MCP and AG-UI start allows questions) changes nothing, so a task gets the same answer
 * through every door.
 */
const involvesPerson = (view: RequestView): boolean =>
  ASKS_FIRST.test(view.task) || view.answers.length > 0 || view.calls.some((c) => c.name === view.control.question);

/** Each city's reading, or why there is none, from the weather calls and weather agents so far (the last attempt wins). */
function readingsSoFar(calls: readonly SeenCall[]): Map<string, Reading> {
  const readings = new Map<string, Reading>();
  for (const c of calls) {
    const city = cityOf(c);
    if (city === undefined || !c.result) continue;
    readings.set(city, readResult(c.result));
  }
  return readings;
}

function cityOf(c: SeenCall): string | undefined {
  if (c.name === 'get_weather') return String(c.input['location'] ?? '').toLowerCase();
  if (c.name === WEATHER_AGENT) return citiesIn(String(c.input['task'] ?? '').toLowerCase())[0];
  return undefined;
}

/** A reading only when the result says so: a failed call, or one without a numeric temperature, is a failure with its text. */
function readResult(result: { content: string; isError: boolean }): Reading {
  if (result.isError) return { ok: false, error: result.content };
  try {
    const parsed = JSON.parse(result.content) as Record<string, unknown>;
    if (typeof parsed['temperature'] === 'number' && Number.isFinite(parsed['temperature'])) {
      return {
        ok: true,
        temperature: parsed['temperature'],
        units: String(parsed['units'] ?? 'celsius'),
        conditions: String(parsed['conditions'] ?? 'unknown conditions'),
      };
    }
  } catch {
    // Not JSON: not a reading.
  }
  return { ok: false, error: `not a reading: ${result.content}` };
}

/** The reading as the weather tool returned it, for a weather agent's answer. */
function readingOf(calls: readonly SeenCall[], city: string): unknown {
  const found = [...calls].reverse().find((c) => cityOf(c) === city && c.result && !c.result.isError);
  return found ? (JSON.parse(found.result!.content) as unknown) : {};
}

function compare(cities: readonly string[], readings: ReadonlyMap<string, Reading>): string {
  const ok = cities.map((c) => ({ city: c, r: readings.get(c) as Extract<Reading, { ok: true }> }));
  const lines = ok.map(
    ({ city, r }) => `${titleCase(city)}: ${r.temperature}°${r.units === 'fahrenheit' ? 'F' : 'C'}, ${r.conditions}`,
  );
  if (ok.length < 2) return `${lines.join('; ')}.`;
  const temps = ok.map(({ r }) => r.temperature);
  const warmest = ok[temps.indexOf(Math.max(...temps))]!.city;
  return `${lines.join('; ')}. ${titleCase(warmest)} is the warmest, by ${Math.max(...temps) - Math.min(...temps)} degrees.`;
}

/** The demo cities a text names, in the order it names them. */
function citiesIn(text: string): string[] {
  return DEMO_CITIES.filter((c) => text.includes(c)).sort((a, b) => text.indexOf(a) - text.indexOf(b));
}
