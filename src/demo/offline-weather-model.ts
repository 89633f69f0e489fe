import type { FakeRequestBody, FakeReply, ScriptEntry } from '../testing';
import { message, textBlock, toolUseBlock } from '../testing';
import { DEMO_CITIES } from './weather-tool';

interface Block {
  type: string;
  text?: string;
  name?: string;
  input?: Record<string, unknown>;
  tool_use_id?: string;
  content?: unknown;
}

/** The team demo's sub-agent (see `thoughtline demo --team`). */
export const WEATHER_AGENT = 'weather_agent';
/** How the lead words a weather agent's task (lower-cased), so the agent knows its own run. */
const AGENT_TASK_PREFIX = 'get the current weather in';

const blocks = (content: unknown): Block[] => (Array.isArray(content) ? (content as Block[]) : []);
const titleCase = (city: string) => city.replace(/\b\w/g, (c) => c.toUpperCase());
const usage = (body: FakeRequestBody) => ({ input_tokens: 180 + Math.round(JSON.stringify(body.messages).length / 4), output_tokens: 40 });

/** Weather results already in the conversation, by lower-case city. */
function observedWeather(body: FakeRequestBody): Map<string, Record<string, unknown>> {
  const asked = new Map<string, string>();
  const seen = new Map<string, Record<string, unknown>>();
  for (const m of body.messages) {
    for (const b of blocks(m.content)) {
      if (b.type === 'tool_use' && b.name === 'get_weather') asked.set((b as { id?: string }).id ?? '', String(b.input?.['location'] ?? '').toLowerCase());
      // A weather agent's answer is one city's reading, as JSON.
      if (b.type === 'tool_use' && b.name === WEATHER_AGENT) asked.set((b as { id?: string }).id ?? '', citiesIn(String(b.input?.['task'] ?? '').toLowerCase())[0] ?? '');
      if (b.type === 'tool_result' && b.tool_use_id && asked.has(b.tool_use_id)) {
        try {
          seen.set(asked.get(b.tool_use_id)!, JSON.parse(typeof b.content === 'string' ? b.content : JSON.stringify(b.content)));
        } catch {
          seen.set(asked.get(b.tool_use_id)!, {});
        }
      }
    }
  }
  return seen;
}

function compare(cities: string[], seen: Map<string, Record<string, unknown>>): string {
  const lines = cities.map((c) => {
    const w = seen.get(c) ?? {};
    return `${titleCase(c)}: ${String(w['temperature'])}°${w['units'] === 'fahrenheit' ? 'F' : 'C'}, ${String(w['conditions'])}`;
  });
  const temps = cities.map((c) => Number(seen.get(c)?.['temperature']));
  const warmest = cities[temps.indexOf(Math.max(...temps))] ?? cities[0]!;
  const spread = Math.max(...temps) - Math.min(...temps);
  return `${lines.join('; ')}. ${titleCase(warmest)} is the warmest, by ${spread} degrees.`;
}

/**
 * A stand-in for Claude when no API key is set: it reads the task and the tool results in each
 * request, looks up every known city it finds, then calls `finish` with a comparison. It speaks
 * the real Messages wire format, so the demo exercises the same provider code as Claude.
 */
export function offlineWeatherReply(body: FakeRequestBody): FakeReply {
  const task = blocks(body.messages[0]?.content).map((b) => b.text ?? '').join(' ').toLowerCase();
  const cities = citiesIn(task);
  const seen = observedWeather(body);
  const noTools = (body.tool_choice as { type?: string } | undefined)?.type === 'none';
  if (cities.length === 0 || noTools) {
    const known = DEMO_CITIES.map(titleCase).join(', ');
    return message([textBlock(`(offline demo model) I can only compare the weather of ${known}. Set ANTHROPIC_API_KEY to use Claude.`)], { usage: usage(body) });
  }
  const next = cities.find((c) => !seen.has(c));
  // With a weather agent on offer (the team demo), every city goes to its own sub-agent, all in one turn.
  if (next && cities.length > 1 && (body.tools ?? []).some((t) => t.name === WEATHER_AGENT)) {
    const calls = cities.filter((c) => !seen.has(c)).map((c) => toolUseBlock(WEATHER_AGENT, { task: `Get the current weather in ${titleCase(c)}, in celsius.` }));
    return message([textBlock(`Delegating ${calls.length} cities to weather agents, in parallel.`), ...calls], { usage: usage(body) });
  }
  // A weather agent's own run (its task is the lead's wording): the reading itself is the answer.
  if (!next && task.startsWith(AGENT_TASK_PREFIX)) {
    return message([textBlock('Reading taken.'), toolUseBlock('finish', { result: JSON.stringify(seen.get(cities[0]!) ?? {}) })], { usage: usage(body) });
  }
  if (next) {
    const thought = seen.size === 0 ? `I need current weather for ${cities.map(titleCase).join(' and ')}. Starting with ${titleCase(next)}.` : `Now ${titleCase(next)}.`;
    return message([textBlock(thought), toolUseBlock('get_weather', { location: titleCase(next), units: 'celsius' })], { usage: usage(body) });
  }
  const comparison = compare(cities, seen);
  // Asked to save: one save_report call (it waits for a person's approval), then finish whatever came back.
  if (/\bsave\b/.test(task) && !calledTool(body, 'save_report')) {
    return message([textBlock('Saving the comparison, as asked.'), toolUseBlock('save_report', { name: 'weather.md', content: `# Weather\n\n${comparison}` })], { usage: usage(body) });
  }
  return message([textBlock('I have every reading I need.'), toolUseBlock('finish', { result: comparison })], { usage: usage(body) });
}

/** The demo cities a text names, in the order it names them. */
function citiesIn(text: string): string[] {
  return DEMO_CITIES.filter((c) => text.includes(c)).sort((a, b) => text.indexOf(a) - text.indexOf(b));
}

function calledTool(body: FakeRequestBody, name: string): boolean {
  return body.messages.some((m) => blocks(m.content).some((b) => b.type === 'tool_use' && b.name === name));
}

/** Enough turns for any run of up to `maxTurns` model calls. */
export const offlineWeatherScript = (maxTurns: number): ScriptEntry[] => Array.from({ length: maxTurns }, () => offlineWeatherReply);
