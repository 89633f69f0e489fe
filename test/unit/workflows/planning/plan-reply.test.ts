import { describe, expect, it } from 'vitest';
import { readPlanReply } from '../../../../src/workflows/planning/plans/plan-reply';

const plan = { tasks: [{ id: 't1', description: 'Read the file', dependencies: [] }] };
const json = JSON.stringify(plan);

describe('reading the JSON of a planner reply', () => {
  it('reads bare JSON', () => {
    expect(readPlanReply(json)).toEqual(plan);
  });

  it('reads a ```json fenced block', () => {
    expect(
      readPlanReply(`Here is the plan:\n\`\`\`json\n${JSON.stringify(plan, null, 2)}\n\`\`\`\nGood luck.`),
    ).toEqual(plan);
  });

  it('reads JSON surrounded by prose', () => {
    expect(readPlanReply(`Sure! ${json} Let me know if you need changes.`)).toEqual(plan);
  });

  it('skips braces in prose that are not JSON and takes the first object that parses', () => {
    const text = `I will use {placeholders} like {this}. ${json} and then {"other": 1}`;
    expect(readPlanReply(text)).toEqual(plan);
  });

  it('keeps braces inside strings from ending the object early', () => {
    const tricky = { tasks: [{ id: 't1', description: 'End the block with "}}" and escape \\"quotes\\" \\' }] };
    expect(readPlanReply(`Plan: ${JSON.stringify(tricky)} done`)).toEqual(tricky);
  });

  it('falls back to an inner object when the outer braces are not JSON', () => {
    expect(readPlanReply(`{plan: ${json}}`)).toEqual(plan);
  });

  it('returns undefined when there is no object, or it is cut off', () => {
    expect(readPlanReply('I cannot make a plan for this.')).toBeUndefined();
    expect(readPlanReply('{"tasks": [{"id": "t1", "description": "Rea')).toBeUndefined();
    expect(readPlanReply('')).toBeUndefined();
  });
});
