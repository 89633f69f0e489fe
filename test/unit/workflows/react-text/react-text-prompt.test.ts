import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolSpec } from '../../../../src/domain';
import { parseReAct } from '../../../../src/workflows/react-text/react-parser';
import {
  formatObservation,
  REACT_STOP_SEQUENCES,
  reactTextSystemPrompt,
  renderToolsForReAct,
} from '../../../../src/workflows/react-text/react-text-prompt';

/** A ToolSpec as the registry makes it: JSON Schema from zod, input side, without `$schema`. */
function spec(name: string, description: string, input: z.ZodType): ToolSpec {
  const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(input, { io: 'input' }) as Record<string, unknown>;
  return {
    name,
    type: 'external',
    description,
    inputSchema,
    timeoutMs: 10_000,
    retry: { maximumAttempts: 3, initialIntervalMs: 1_000, backoffCoefficient: 2 },
    visibility: 'full',
  };
}

const weather = spec(
  'weather_api',
  'Current weather for a city.',
  z.object({
    location: z.string().describe('City name'),
    units: z.enum(['celsius', 'fahrenheit']).default('celsius').describe('Temperature units'),
    days: z.number().int().min(1).max(7).optional().describe('Days of forecast'),
    detailed: z.boolean().default(false),
  }),
);

const database = spec(
  'database',
  'Query the database for data.\nUse SQL queries.',
  z.object({
    query: z.string().describe('SQL query to execute'),
    limit: z.number().int().default(100).describe('Maximum rows to return'),
    tags: z.array(z.string()).optional().describe('Labels'),
    modes: z.array(z.enum(['fast', 'safe'])).optional(),
    filter: z.object({ column: z.string() }).optional().describe('Row filter'),
    cursor: z.string().nullable().describe('Page cursor'),
    kind: z.literal('sql'),
  }),
);

const clock = spec('clock', 'The current time.', z.object({}));

describe('renderToolsForReAct', () => {
  it('renders required, optional, default and enum parameters in the text protocol format', () => {
    expect(renderToolsForReAct([weather]).split('\n')).toEqual([
      'weather_api: Current weather for a city.',
      '  Parameters:',
      '    - location (string, required): City name',
      '    - units (string, one of celsius|fahrenheit, optional, default=celsius): Temperature units',
      '    - days (integer, optional): Days of forecast',
      '    - detailed (boolean, optional, default=false)',
    ]);
  });

  it('renders arrays, nested objects, nullable and literal types, and Returns when given', () => {
    expect(
      renderToolsForReAct([{ ...database, returns: 'Query results with rows\nand metadata' }]).split('\n'),
    ).toEqual([
      'database: Query the database for data. Use SQL queries.',
      '  Parameters:',
      '    - query (string, required): SQL query to execute',
      '    - limit (integer, optional, default=100): Maximum rows to return',
      '    - tags (array of string, optional): Labels',
      '    - modes (array of (string, one of fast|safe), optional)',
      '    - filter (object, optional): Row filter',
      '    - cursor (string or null, required): Page cursor',
      '    - kind (string, one of sql, required)',
      '  Returns: Query results with rows and metadata',
    ]);
  });

  it('separates tools by a blank line and says when a tool has no parameters', () => {
    expect(renderToolsForReAct([clock, clock])).toBe(
      'clock: The current time.\n  Parameters: none\n\nclock: The current time.\n  Parameters: none',
    );
    expect(renderToolsForReAct([])).toBe('');
  });
});

describe('reactTextSystemPrompt', () => {
  const prompt = reactTextSystemPrompt({ tools: [weather, clock] });
  const lines = prompt.split('\n');

  it('opens with the lead, lists the tools and ends with Begin!', () => {
    expect(lines[0]).toBe('You are an autonomous AI agent that can reason and act to solve user tasks.');
    expect(prompt).toContain(`You have access to the following tools:\n\n${renderToolsForReAct([weather, clock])}\n\n`);
    expect(lines.at(-1)).toBe('Begin!');
    expect(reactTextSystemPrompt({ tools: [], lead: 'You are terse.' }).split('\n')[0]).toBe('You are terse.');
  });

  it('teaches the format with the tool names and JSON Action Input', () => {
    const start = lines.indexOf('Use the following format for your responses:');
    expect(lines.slice(start + 2, start + 9)).toEqual([
      'Thought: <your reasoning about what to do next>',
      'Action: <the tool name, exactly one of: weather_api, clock>',
      "Action Input: <the tool's arguments as valid JSON>",
      'Observation: <the tool result will appear here>',
      '... (repeat Thought/Action/Action Input/Observation as many times as needed)',
      'Thought: <final reasoning>',
      'Final Answer: <your response to the user>',
    ]);
  });

  it('states the rules, with the finish rule last and replaceable', () => {
    const rules = lines.filter((l) => /^\d+\. /.test(l));
    expect(rules).toHaveLength(10);
    expect(rules.join('\n')).toMatch(/valid JSON object/);
    expect(rules.join('\n')).toMatch(/NEVER write "Observation:" yourself/);
    expect(rules[9]).toBe(
      '10. When you have enough information, write "Final Answer:" followed by your complete response to the user.',
    );
    const custom = reactTextSystemPrompt({ tools: [clock], finishInstruction: 'Finish by calling "finish".' });
    expect(custom.split('\n').filter((l) => l.startsWith('10. '))).toEqual(['10. Finish by calling "finish".']);
  });

  it('the worked example of the prompt format parses back', () => {
    const reply = 'Thought: I need the weather.\nAction: weather_api\nAction Input: {"location": "Paris"}';
    expect(parseReAct(reply)).toEqual({
      kind: 'action',
      tool: 'weather_api',
      input: { location: 'Paris' },
      rawInput: '{"location": "Paris"}',
      thought: 'I need the weather.',
    });
  });
});

describe('stop sequence and observations', () => {
  it('stops before an invented Observation', () => {
    expect(REACT_STOP_SEQUENCES).toEqual(['\nObservation:']);
    expect(Object.isFrozen(REACT_STOP_SEQUENCES)).toBe(true);
  });

  it('formats results and errors', () => {
    expect(formatObservation(' {"temperature": 18}\r\n', false)).toBe('{"temperature": 18}');
    expect(formatObservation('line 1\r\nline 2', false)).toBe('line 1\nline 2');
    expect(formatObservation('', false)).toBe('(no output)');
    expect(formatObservation('timeout after 10s', true)).toBe('Error: timeout after 10s');
    expect(formatObservation('Error: unknown tool "x".', true)).toBe('Error: unknown tool "x".');
    expect(formatObservation('Errors are fine here', false)).toBe('Errors are fine here');
  });
});
