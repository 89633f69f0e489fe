import { describe, expect, it } from 'vitest';
import { weatherDemoTurn } from '../../src/demo/offline-weather-model';
import { offlineContent } from '../../src/offline/offline-model';
import { offlinePlanReply } from '../../src/offline/offline-plan';
import { relevantTools } from '../../src/offline/tool-relevance';
import { plannerPrompt } from '../../src/workflows/planning/plans/plan-prompts';
import { readPlanReply } from '../../src/workflows/planning/plans/plan-reply';
import { validatePlan } from '../../src/workflows/planning/plans/plan-validation';
import { calls, request, tool, turn } from '../helpers/offline-request';

const WEATHER = tool('get_weather', 'Current weather for a city', { location: { type: 'string' } });
const SAVE = tool('save_report', 'Save a short markdown report to a file', {
  name: { type: 'string' },
  content: { type: 'string' },
});

describe('which tools the offline model picks', () => {
  it('scores the task against names (2) and descriptions (1); a tool sharing no word is never picked', () => {
    const tools = [
      tool('lookup_order', 'Find an order by id'),
      tool('send_invoice', 'Email an invoice to a customer'),
      tool('ping', 'Checks the server'),
    ];
    expect(relevantTools('Where is my order?', tools).map((t) => t.name)).toEqual(['lookup_order']);
    expect(relevantTools('Send the invoice for my order', tools).map((t) => t.name)).toEqual([
      'lookup_order',
      'send_invoice',
    ]);
    expect(relevantTools('Write a poem', tools)).toEqual([]);
  });
});

describe('plans', () => {
  it('replies with a valid plan of 2 tasks: the fitting tool, then the answer', () => {
    const reply = offlinePlanReply(
      plannerPrompt('What is the weather in Paris?', ['get_weather', 'save_report'], { maxTasks: 12 }),
    );
    const check = validatePlan(readPlanReply(reply), { maxTasks: 12 });
    expect(check.ok && check.tasks.map((t) => [t.id, t.requiredTools, t.dependencies])).toEqual([
      ['t1', ['get_weather'], []],
      ['t2', [], ['t1']],
    ]);
  });

  it('with no fitting tool, plans to look for one (which the run then reports as failed)', () => {
    const check = validatePlan(
      readPlanReply(offlinePlanReply(plannerPrompt('Write a poem', ['get_weather'], { maxTasks: 3 }))),
      { maxTasks: 3 },
    );
    expect(check.ok && check.tasks.map((t) => t.description)).toEqual([
      'Find and call the tools that fit: Write a poem',
      'Answer the goal from the results of the tasks before: Write a poem',
    ]);
  });
});

describe('the loop’s moves', () => {
  it('gives up with the reason when no tool fits and no question may be asked', () => {
    const [, giveUp] = offlineContent(request('Write a poem', [WEATHER]));
    expect(giveUp).toMatchObject({ type: 'tool_use', name: 'give_up' });
    expect(JSON.stringify(giveUp)).toContain('No tool fits');
  });

  it('gives up, saying why, when the task asks to ask a person but questions are not allowed', () => {
    const [, giveUp] = offlineContent(request('Ask me which city, then get its weather', [WEATHER]));
    expect(giveUp).toMatchObject({ type: 'tool_use', name: 'give_up' });
    expect(JSON.stringify(giveUp)).toContain('does not allow questions');
  });

  it('calls a writer after the reader, with what the reader returned as the body', () => {
    const first = calls(offlineContent(request('Get the weather in Rome and save a report', [SAVE, WEATHER])));
    expect(first).toEqual([{ name: 'get_weather', input: { location: 'Rome' } }]);
    const second = calls(
      offlineContent(
        request(
          'Get the weather in Rome and save a report',
          [SAVE, WEATHER],
          turn('c1', 'get_weather', { location: 'Rome' }, '{"temperature":20}'),
        ),
      ),
    );
    expect(second[0]?.name).toBe('save_report');
    expect(String(second[0]?.input['content'])).toContain('{"temperature":20}');
  });

  it('finishes honestly when the reader worked and the writer was refused: the refusal is quoted', () => {
    const task = 'Get the weather in Rome and save a report';
    const history = [
      ...turn('c1', 'get_weather', { location: 'Rome' }, '{"temperature":20}'),
      ...turn('c2', 'save_report', { name: 'rome.md', content: 'x' }, 'Rejected by alice: not now', true),
    ];
    const [finish] = calls(offlineContent(request(task, [SAVE, WEATHER], history)));
    expect(finish?.name).toBe('finish');
    expect(String(finish?.input['result'])).toContain('get_weather({"location":"Rome"}) returned {"temperature":20}');
    expect(String(finish?.input['result'])).toContain(
      'save_report({"name":"rome.md","content":"x"}) failed: Rejected by alice: not now',
    );
  });
});

describe('the weather demo script', () => {
  const task = 'Compare the weather in Paris and Tokyo.';
  const paris = turn(
    'w1',
    'get_weather',
    { location: 'Paris' },
    '{"location":"Paris","temperature":12,"units":"celsius","conditions":"light rain"}',
  );

  it('reports a failed reading as failed, never as a temperature', () => {
    const blocks = weatherDemoTurn(
      request(
        task,
        [WEATHER],
        [...paris, ...turn('w2', 'get_weather', { location: 'Tokyo' }, 'Error: service down', true)],
      ),
    );
    const answer = String(calls(blocks!)[0]?.input['result']);
    expect(answer).toBe('[offline model] Paris: 12°C, light rain. But no reading for Tokyo (Error: service down).');
  });

  it('treats a result without a numeric temperature as no reading, and gives up when none came back', () => {
    const blocks = weatherDemoTurn(
      request(
        task,
        [WEATHER],
        [
          ...turn('w1', 'get_weather', { location: 'Paris' }, '{}'),
          ...turn('w2', 'get_weather', { location: 'Tokyo' }, 'not json'),
        ],
      ),
    );
    expect(calls(blocks!)[0]?.name).toBe('give_up');
    expect(JSON.stringify(blocks)).not.toMatch(/undefined|NaN/);
  });

  it('leaves tasks without a demo city to the general rules', () => {
    expect(weatherDemoTurn(request('What is the weather in Rome?', [WEATHER]))).toBeUndefined();
  });
});
