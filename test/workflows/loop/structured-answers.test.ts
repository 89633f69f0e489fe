import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { say, useTool } from '../../../src/activities/models/scripted-model';
import { outputSchemaOf } from '../../../src/domain';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

// A pattern and an email format: both are regular expressions once inside the workflow sandbox.
const Contact = z.object({ name: z.string(), email: z.email(), code: z.string().regex(/^[A-Z]{3}-\d+$/) }).strict();
const outputSchema = outputSchemaOf(Contact);
const good = { name: 'Ada', email: 'ada@example.com', code: 'ABC-42' };

describe('runs with an output schema', () => {
  it("offers the schema as the finish tool's result and returns the checked value as output", async () => {
    const { result, model } = await runScripted(env, {
      script: [{ content: [useTool('finish', { result: good })] }],
      input: { task: 'Who is the contact?', outputSchema },
    });
    expect(result).toMatchObject({ success: true, output: good, finalAnswer: JSON.stringify(good) });
    const finish = model.calls[0]!.tools.find((t) => t.name === 'finish')!;
    expect(finish.inputSchema).toMatchObject({
      properties: { result: { type: 'object', required: ['name', 'email', 'code'] } },
    });
  });

  it('tells the model what did not match and takes its corrected answer', async () => {
    const { result, model } = await runScripted(env, {
      script: [
        { content: [useTool('finish', { result: { ...good, email: 'not an email', code: 'abc' } })] },
        { content: [useTool('finish', { result: good })] },
      ],
      input: { task: 'Who is the contact?', outputSchema },
    });
    expect(result).toMatchObject({ success: true, output: good });
    const told = JSON.stringify(model.calls[1]!.messages.at(-1));
    expect(told).toContain('does not match the output schema');
    expect(told).toContain('email');
    expect(told).toContain('code');
  });

  it('reads a text answer as JSON, and sends prose back as a format error', async () => {
    const { result } = await runScripted(env, {
      script: [
        { content: [say('The contact is Ada.')] },
        { content: [say('```json\n' + JSON.stringify(good) + '\n```')] },
      ],
      input: { task: 'Who is the contact?', outputSchema },
    });
    expect(result).toMatchObject({ success: true, output: good, formatErrors: 1 });
  });

  it('holds in text ReAct: the schema is in the prompt and the Final Answer is checked', async () => {
    const { result, model } = await runScripted(env, {
      script: [
        { content: [say('Thought: I know.\nFinal Answer: {"name": "Ada"}')] },
        { content: [say(`Thought: All fields.\nFinal Answer: ${JSON.stringify(good)}`)] },
      ],
      input: { task: 'Who is the contact?', outputSchema, strategy: 'react-text' },
    });
    expect(result).toMatchObject({ success: true, output: good });
    expect(model.calls[0]!.system).toContain('must be one JSON value matching this JSON Schema');
    expect(JSON.stringify(model.calls[1]!.messages.at(-1))).toContain('does not match the output schema');
  });

  it('ends at the iteration limit when the model never matches, without an output', async () => {
    const wrong = { content: [useTool('finish', { result: { name: 'Ada' } })] };
    const { result } = await runScripted(env, {
      script: [wrong, wrong, { content: [say('I could not fill every field.')] }],
      input: { task: 'Who is the contact?', outputSchema, maxIterations: 2 },
    });
    expect(result).toMatchObject({ success: false, terminationReason: 'max_iterations' });
    expect(result.output).toBeUndefined();
  });
});
