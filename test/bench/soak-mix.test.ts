import { describe, expect, it } from 'vitest';
import { soakMix, soakTask } from '../../bench/soak/soak-mix';
import { soakReply } from '../../bench/soak/soak-model-server';

/** The soak's arrivals and its stateless model (bench/soak): what every run of it is asked to do, and answered. */
describe('the soak mix', () => {
  it('is the same plan for the same seed, evenly spaced, with every kind and the ending each must have', () => {
    const plan = soakMix({ minutes: 10, perMinute: 30, seed: 1 });
    expect(plan).toEqual(soakMix({ minutes: 10, perMinute: 30, seed: 1 }));
    expect(plan).not.toEqual(soakMix({ minutes: 10, perMinute: 30, seed: 2 }));
    expect(plan).toHaveLength(300);
    expect(plan[1]!.atS - plan[0]!.atS).toBe(2);
    expect(new Set(plan.map((a) => a.kind))).toEqual(new Set(['short', 'long', 'approval', 'team', 'cancel']));
    expect(new Set(plan.map((a) => a.label)).size).toBe(300);
    for (const a of plan) expect(a.expected).toBe(a.kind === 'cancel' ? 'cancelled' : 'finished');
    const steps = plan.filter((a) => a.kind === 'long').map((a) => a.steps);
    expect(Math.min(...steps)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...steps)).toBeLessThanOrEqual(50);
  });
});

describe('the soak model', () => {
  const user = (text: string) => ({ role: 'user', content: text });
  const called = (name: string, input: Record<string, unknown>) => ({
    role: 'assistant',
    content: [{ type: 'tool_use', name, input }],
  });

  it('calls slow_job once a step, counting from its last call, then finishes', () => {
    const task = user(soakTask('short', 's1s', 2));
    expect(soakReply([task]).content.at(-1)).toMatchObject({ name: 'slow_job', input: { run: 's1s', step: 0 } });
    expect(soakReply([task, called('slow_job', { run: 's1s', step: 0 })]).content.at(-1)).toMatchObject({
      name: 'slow_job',
      input: { step: 1 },
    });
    expect(soakReply([task, called('slow_job', { run: 's1s', step: 1 })]).content.at(-1)).toMatchObject({
      name: 'finish',
    });
  });

  it("has a team's lead delegate the job to its sub-agent once, then finish", () => {
    const task = user(soakTask('team', 's2t', 3));
    expect(soakReply([task]).content.at(-1)).toMatchObject({
      name: 'helper',
      input: { task: soakTask('child', 's2tc', 3) },
    });
    expect(soakReply([task, called('helper', { task: 'x' })]).content.at(-1)).toMatchObject({ name: 'finish' });
  });

  it('refuses a request that is not a soak run', () => {
    expect(() => soakReply([user('hello')])).toThrow('not a soak run');
  });
});
