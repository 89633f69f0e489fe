import { describe, expect, it } from 'vitest';
import { parseReAct, REACT_FORMAT_ERRORS, type ParsedReAct } from '../../../../src/workflows/react-text/react-parser';

const E = REACT_FORMAT_ERRORS;
const err = (message: string): ParsedReAct => ({ kind: 'error', message });
const lines = (...ls: string[]): string => ls.join('\n');

const cases: Array<[name: string, text: string, expected: ParsedReAct]> = [
  // --- actions
  [
    'plain action with JSON input',
    lines(
      'Thought: I need the weather.',
      'Action: weather_api',
      'Action Input: {"location": "Paris", "units": "celsius"}',
    ),
    {
      kind: 'action',
      tool: 'weather_api',
      input: { location: 'Paris', units: 'celsius' },
      rawInput: '{"location": "Paris", "units": "celsius"}',
      thought: 'I need the weather.',
    },
  ],
  [
    'JSON spread over several lines',
    lines('Thought: add them', 'Action: add', 'Action Input: {', '    "a": 1,', '    "b": [2, 3]', '}'),
    {
      kind: 'action',
      tool: 'add',
      input: { a: 1, b: [2, 3] },
      rawInput: '{\n    "a": 1,\n    "b": [2, 3]\n}',
      thought: 'add them',
    },
  ],
  [
    'input in a ```json fence on the next line',
    lines('Thought: t', 'Action: search', 'Action Input:', '```json', '{"q": "cats"}', '```'),
    { kind: 'action', tool: 'search', input: { q: 'cats' }, rawInput: '```json\n{"q": "cats"}\n```', thought: 't' },
  ],
  [
    'JSON input in a plain ``` fence',
    lines('Thought: t', 'Action: search', 'Action Input: ```', '{"q": "dogs"}', '```'),
    { kind: 'action', tool: 'search', input: { q: 'dogs' }, rawInput: '```\n{"q": "dogs"}\n```', thought: 't' },
  ],
  [
    'non-JSON code in a fence stays the raw text, fences included',
    lines(
      'Now I write a test.',
      '',
      'Action: python',
      'Action Input:',
      '```',
      'import unittest',
      '',
      'unittest.main()',
      '```',
    ),
    {
      kind: 'action',
      tool: 'python',
      input: '```\nimport unittest\n\nunittest.main()\n```',
      rawInput: '```\nimport unittest\n\nunittest.main()\n```',
      thought: 'Now I write a test.',
    },
  ],
  [
    'CRLF line endings',
    'Thought: crlf\r\nAction: echo\r\nAction Input: {"text": "a"}\r\n',
    { kind: 'action', tool: 'echo', input: { text: 'a' }, rawInput: '{"text": "a"}', thought: 'crlf' },
  ],
  [
    'indented fields with an indented multi-line input',
    lines('    Thought: indented', '    Action: add', '    Action Input: {', '      "a": 1', '    }'),
    { kind: 'action', tool: 'add', input: { a: 1 }, rawInput: '{\n  "a": 1\n}', thought: 'indented' },
  ],
  [
    'blank lines between fields',
    lines('Thought: spaced out', '', 'Action: add', '', '', 'Action Input: {"a": 1, "b": 1}', ''),
    { kind: 'action', tool: 'add', input: { a: 1, b: 1 }, rawInput: '{"a": 1, "b": 1}', thought: 'spaced out' },
  ],
  [
    'label values on the line after the label',
    lines('Thought: list files', 'Action:', 'Terminal', '', 'Action Input:', 'ls -l ~/.bashrc.d/', ''),
    {
      kind: 'action',
      tool: 'Terminal',
      input: 'ls -l ~/.bashrc.d/',
      rawInput: 'ls -l ~/.bashrc.d/',
      thought: 'list files',
    },
  ],
  [
    'CJK tool name',
    lines('Thought: 東京の天気を調べる', 'Action: 天気', 'Action Input: {"都市": "東京"}'),
    {
      kind: 'action',
      tool: '天気',
      input: { 都市: '東京' },
      rawInput: '{"都市": "東京"}',
      thought: '東京の天気を調べる',
    },
  ],
  [
    'accented tool name',
    lines('Thought: quel temps', 'Action: météo', 'Action Input: {"ville": "Orléans"}'),
    {
      kind: 'action',
      tool: 'météo',
      input: { ville: 'Orléans' },
      rawInput: '{"ville": "Orléans"}',
      thought: 'quel temps',
    },
  ],
  [
    'JSON string input with escaped quotes keeps its closing quote',
    lines('Thought: greet', 'Action: say', 'Action Input: "say \\"hi\\""'),
    { kind: 'action', tool: 'say', input: 'say "hi"', rawInput: '"say \\"hi\\""', thought: 'greet' },
  ],
  [
    'bare string ending in a quote is left untouched',
    lines('Thought: find', 'Action: search', 'Action Input: pictures of "cats"'),
    { kind: 'action', tool: 'search', input: 'pictures of "cats"', rawInput: 'pictures of "cats"', thought: 'find' },
  ],
  [
    'SQL with quoted identifiers keeps both quotes',
    lines(
      'I should query the largest payment.',
      'Action: query_sql_db',
      'Action Input: SELECT "UserName", MAX(pay) FROM shifts GROUP BY "UserName"',
    ),
    {
      kind: 'action',
      tool: 'query_sql_db',
      input: 'SELECT "UserName", MAX(pay) FROM shifts GROUP BY "UserName"',
      rawInput: 'SELECT "UserName", MAX(pay) FROM shifts GROUP BY "UserName"',
      thought: 'I should query the largest payment.',
    },
  ],
  [
    'hallucinated Observation and Final Answer after the input are cut',
    lines(
      'Thought: search NBA',
      'Action: Search',
      'Action Input: NBA',
      'Observation: founded in 1946',
      'Thought: I know it',
      'Final Answer: 1946',
    ),
    { kind: 'action', tool: 'Search', input: 'NBA', rawInput: 'NBA', thought: 'search NBA' },
  ],
  [
    'hallucinated Observation right after a JSON input, then another action',
    lines(
      'Thought: go',
      'Action: fetch',
      'Action Input: {"url": "https://a.example"}',
      '',
      'Observation: <html>',
      'Action: fetch',
      'Action Input: {"url": "https://b.example"}',
    ),
    {
      kind: 'action',
      tool: 'fetch',
      input: { url: 'https://a.example' },
      rawInput: '{"url": "https://a.example"}',
      thought: 'go',
    },
  ],
  [
    'Observation inside an unclosed JSON object still cuts',
    lines('Thought: t', 'Action: search', 'Action Input: {"q": "x",', 'Observation: made up'),
    { kind: 'action', tool: 'search', input: '{"q": "x",', rawInput: '{"q": "x",', thought: 't' },
  ],
  [
    'several Action blocks: the first wins',
    lines(
      'Thought: both cities',
      'Action: weather',
      'Action Input: {"city": "SF"}',
      'Action: weather',
      'Action Input: {"city": "Paris"}',
    ),
    { kind: 'action', tool: 'weather', input: { city: 'SF' }, rawInput: '{"city": "SF"}', thought: 'both cities' },
  ],
  [
    'Final Answer: inside the JSON string on the input line does not count',
    lines('Thought: note it', 'Action: write_note', 'Action Input: {"text": "Final Answer: 42"}'),
    {
      kind: 'action',
      tool: 'write_note',
      input: { text: 'Final Answer: 42' },
      rawInput: '{"text": "Final Answer: 42"}',
      thought: 'note it',
    },
  ],
  [
    'Final Answer: on a line inside an open JSON string does not count',
    lines('Thought: t', 'Action: write_file', 'Action Input: {"content": "draft', 'Final Answer: not yet', '"}'),
    {
      kind: 'action',
      tool: 'write_file',
      input: '{"content": "draft\nFinal Answer: not yet\n"}',
      rawInput: '{"content": "draft\nFinal Answer: not yet\n"}',
      thought: 't',
    },
  ],
  [
    'labels inside a fenced input do not count',
    lines('Thought: t', 'Action: write_file', 'Action Input:', '```', 'Observation: kept', 'Final Answer: kept', '```'),
    {
      kind: 'action',
      tool: 'write_file',
      input: '```\nObservation: kept\nFinal Answer: kept\n```',
      rawInput: '```\nObservation: kept\nFinal Answer: kept\n```',
      thought: 't',
    },
  ],
  [
    'commentary after a JSON input is dropped',
    lines('Thought: t', 'Action: add', 'Action Input: {"a": 1} along those lines', 'I will now wait.'),
    { kind: 'action', tool: 'add', input: { a: 1 }, rawInput: '{"a": 1}', thought: 't' },
  ],
  [
    'an unbalanced JSON input stays a string',
    lines('Thought: t', 'Action: search', 'Action Input: {"query": "temperature in SF"'),
    {
      kind: 'action',
      tool: 'search',
      input: '{"query": "temperature in SF"',
      rawInput: '{"query": "temperature in SF"',
      thought: 't',
    },
  ],
  [
    'a JSON number input',
    lines('Thought: t', 'Action: square', 'Action Input: 42'),
    { kind: 'action', tool: 'square', input: 42, rawInput: '42', thought: 't' },
  ],
  [
    'text before the first label is the thought',
    lines('I can use the `foo` tool to achieve the goal.', '    Action: foo', '    Action Input: bar'),
    {
      kind: 'action',
      tool: 'foo',
      input: 'bar',
      rawInput: 'bar',
      thought: 'I can use the `foo` tool to achieve the goal.',
    },
  ],
  [
    'preamble and Thought: are joined',
    lines('Let me think.', 'Thought: I need data.', 'Action: db', 'Action Input: {}'),
    { kind: 'action', tool: 'db', input: {}, rawInput: '{}', thought: 'Let me think.\nI need data.' },
  ],
  [
    'lower-case labels',
    lines('thought: quiet', 'action: search', 'action input: {"q": 1}'),
    { kind: 'action', tool: 'search', input: { q: 1 }, rawInput: '{"q": 1}', thought: 'quiet' },
  ],
  [
    'markdown bold labels with the colon inside',
    lines('**Thought:** bold', '**Action:** search', '**Action Input:** {"q": "x"}'),
    { kind: 'action', tool: 'search', input: { q: 'x' }, rawInput: '{"q": "x"}', thought: 'bold' },
  ],
  [
    'markdown bold labels with the colon outside',
    lines('**Thought**: bold', '**Action**: search', '**Action Input**: {"q": "x"}'),
    { kind: 'action', tool: 'search', input: { q: 'x' }, rawInput: '{"q": "x"}', thought: 'bold' },
  ],
  [
    'numbered labels, underscore and full-width colon',
    lines('Thought 1: numbered', 'Action 1：search', 'Action_Input 1: {"q": "x"}'),
    { kind: 'action', tool: 'search', input: { q: 'x' }, rawInput: '{"q": "x"}', thought: 'numbered' },
  ],
  [
    'tool name in backticks',
    lines('Thought: t', 'Action: `web_search`', 'Action Input: {"q": "x"}'),
    { kind: 'action', tool: 'web_search', input: { q: 'x' }, rawInput: '{"q": "x"}', thought: 't' },
  ],
  [
    'tool name in quotes with a trailing period',
    lines('Thought: t', 'Action: "web_search".', 'Action Input: {"q": "x"}'),
    { kind: 'action', tool: 'web_search', input: { q: 'x' }, rawInput: '{"q": "x"}', thought: 't' },
  ],
  [
    'tool name with a remark in parentheses',
    lines('Thought: t', 'Action: add (add two numbers)', 'Action Input: {"a": 1, "b": 1}'),
    { kind: 'action', tool: 'add', input: { a: 1, b: 1 }, rawInput: '{"a": 1, "b": 1}', thought: 't' },
  ],
  [
    'Action Input on the Action line',
    'Action:  foo Action Input: bar',
    { kind: 'action', tool: 'foo', input: 'bar', rawInput: 'bar' },
  ],
  [
    'multi-line plain-text input',
    lines('Action: foo', 'Action Input:', 'bar', 'baz'),
    { kind: 'action', tool: 'foo', input: 'bar\nbaz', rawInput: 'bar\nbaz' },
  ],
  [
    'only the action part wrapped in a fence',
    lines('Thought: fenced call', '```', 'Action: search', 'Action Input: {"q": "x"}', '```'),
    { kind: 'action', tool: 'search', input: { q: 'x' }, rawInput: '{"q": "x"}', thought: 'fenced call' },
  ],
  [
    'label words in the middle of a thought are text',
    lines('Thought: the next Action: is a search', 'Action: search', 'Action Input: {"q": "x"}'),
    {
      kind: 'action',
      tool: 'search',
      input: { q: 'x' },
      rawInput: '{"q": "x"}',
      thought: 'the next Action: is a search',
    },
  ],
  // --- final answers
  [
    'final answer over several lines',
    lines('Thought: I have both reports.', 'Final Answer: SF is warmer.', '', 'Paris is rainy.', '- SF: 18°C'),
    { kind: 'final', answer: 'SF is warmer.\n\nParis is rainy.\n- SF: 18°C', thought: 'I have both reports.' },
  ],
  [
    'final answer on the line after its label',
    lines('Thought: I can now answer', 'Final Answer:', '1994'),
    { kind: 'final', answer: '1994', thought: 'I can now answer' },
  ],
  [
    'final answer alone, trailing space trimmed',
    'Final Answer: The best pizza is margherita ',
    { kind: 'final', answer: 'The best pizza is margherita' },
  ],
  [
    'Answer: is a final answer',
    lines('I have enough information.', 'Answer: 2'),
    { kind: 'final', answer: '2', thought: 'I have enough information.' },
  ],
  [
    'heading and bold final answer labels, bold kept inside the answer',
    lines('### Thought: done', '**Final Answer:** **Paris** is the capital.'),
    { kind: 'final', answer: '**Paris** is the capital.', thought: 'done' },
  ],
  [
    'upper-case final answer label',
    lines('THOUGHT: loud', 'FINAL ANSWER: yes'),
    { kind: 'final', answer: 'yes', thought: 'loud' },
  ],
  [
    'Action: Final Answer with the answer as input',
    lines('Thought: done', 'Action: Final Answer', 'Action Input: "Paris is the capital."'),
    { kind: 'final', answer: 'Paris is the capital.', thought: 'done' },
  ],
  [
    'an Observation echoed before anything else is ignored',
    lines('Observation: 2.1694', '  Thought: I now know the final answer', '  Final Answer: He is 29.'),
    { kind: 'final', answer: 'He is 29.', thought: 'I now know the final answer' },
  ],
  [
    'a reply wrapped whole in a code fence',
    lines('```', 'Thought: summarise', 'Final Answer:', 'Report', '', '1. Intro', '```'),
    { kind: 'final', answer: 'Report\n\n1. Intro', thought: 'summarise' },
  ],
  [
    'a fenced block in the answer hides its labels',
    lines(
      'Thought: show the format',
      'Final Answer: Write:',
      '```',
      'Action: search',
      'Action Input: {"q": "x"}',
      '```',
    ),
    { kind: 'final', answer: 'Write:\n```\nAction: search\nAction Input: {"q": "x"}\n```', thought: 'show the format' },
  ],
  [
    'an Action: line alone after the answer is answer text',
    lines('Final Answer: Next steps', 'Action: review the budget', 'Thought: owners sign off'),
    { kind: 'final', answer: 'Next steps\nAction: review the budget\nThought: owners sign off' },
  ],
  [
    'a made-up Observation after the answer is cut',
    lines('Thought: t', 'Final Answer: 4', 'Observation: correct!'),
    { kind: 'final', answer: '4', thought: 't' },
  ],
  [
    'Action: inside the answer text mid-line',
    lines('Thought: ok', 'Answer: contains Legislative Action: here is the content.'),
    { kind: 'final', answer: 'contains Legislative Action: here is the content.', thought: 'ok' },
  ],
  // --- errors
  [
    'action and final answer',
    lines('Thought: t', 'Action: search', 'Action Input: NBA', 'Thought: I know', 'Final Answer: 1994'),
    err(E.actionAndAnswer),
  ],
  [
    'final answer then a parsable action',
    lines('Final Answer: margherita', '', '    Action: foo', '    Action Input: bar'),
    err(E.actionAndAnswer),
  ],
  [
    'Final Answer: on the Action line',
    lines('Thought: t', 'Action: search Final Answer:', 'Action Input: what is the temperature?'),
    err(E.actionAndAnswer),
  ],
  [
    'Action without Action Input before a final answer',
    lines('Thought: t', 'Action: none', 'Final Answer: 42'),
    err(E.actionAndAnswer),
  ],
  ['Action without Action Input', lines('Thought: t', 'Action: search'), err(E.missingActionInput)],
  [
    'Action followed by a Thought',
    lines('Thought: search NBA', 'Action: Search', 'Thought: NBA'),
    err(E.missingActionInput),
  ],
  [
    'Action then a made-up Observation',
    lines('Action: search', 'Observation: result', 'Action Input: x'),
    err(E.missingActionInput),
  ],
  [
    'Action Input without Action',
    lines('Thought: search NBA', 'Thought: Search', 'Action Input: NBA'),
    err(E.missingAction),
  ],
  ['Action Input before Action', lines('Action Input: {"q": 1}', 'Action: search'), err(E.missingAction)],
  ['Thought only', 'Thought: I am still thinking about it.', err(E.missingActionOrAnswer)],
  ['prose without labels', 'I can use the `foo` tool to achieve the goal.', err(E.missingActionOrAnswer)],
  ['an empty reply', ' \n\t\n', err(E.empty)],
  ['empty tool name', lines('Thought: t', 'Action:', 'Action Input: {"q": 1}'), err(E.emptyToolName)],
  ['tool name of only backticks', lines('Thought: t', 'Action: ``', 'Action Input: {"q": 1}'), err(E.emptyToolName)],
  ['empty Action Input', lines('Thought: t', 'Action: search', 'Action Input:'), err(E.emptyActionInput)],
  ['empty Final Answer', lines('Thought: t', 'Final Answer:   '), err(E.emptyFinalAnswer)],
];

describe('parseReAct', () => {
  it.each(cases)('%s', (_name, text, expected) => {
    expect(parseReAct(text)).toStrictEqual(expected);
  });

  const multiLine = cases.map(([, text]) => text).filter((t) => t.includes('\n') && !t.includes('\r'));

  it('gives the same result for CRLF, CR and LF line endings', () => {
    expect(multiLine.length).toBeGreaterThan(40);
    for (const text of multiLine) {
      expect(parseReAct(text.replace(/\n/g, '\r\n'))).toStrictEqual(parseReAct(text));
      expect(parseReAct(text.replace(/\n/g, '\r'))).toStrictEqual(parseReAct(text));
    }
  });

  it('ignores trailing whitespace on every line and at the end', () => {
    for (const text of multiLine) {
      const padded = `${text
        .split('\n')
        .map((l, i) => l + ' \t'.repeat(i % 3))
        .join('\n')}  \n\n `;
      expect(parseReAct(padded)).toStrictEqual(parseReAct(text));
    }
  });

  it('ignores an indentation shared by every line', () => {
    for (const text of multiLine) {
      const indented = text
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n');
      expect(parseReAct(indented)).toStrictEqual(parseReAct(text));
    }
  });

  it('never throws, whatever prefix of a reply it gets (streamed or cut replies)', () => {
    for (const text of multiLine) {
      for (let end = 0; end <= text.length; end += 7) {
        const result = parseReAct(text.slice(0, end));
        expect(['action', 'final', 'error']).toContain(result.kind);
      }
    }
  });

  it('stays linear on long replies without labels', () => {
    const started = performance.now();
    expect(parseReAct(`Thought: ${'x'.repeat(200_000)}`)).toStrictEqual(err(E.missingActionOrAnswer));
    expect(parseReAct(`Final Answer: ${'y\n'.repeat(50_000)}`).kind).toBe('final');
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
