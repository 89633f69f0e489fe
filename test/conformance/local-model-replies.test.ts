import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AssistantBlock } from '../../src/domain';
import { parseReAct, REACT_FORMAT_ERRORS } from '../../src/workflows/react-parser';

/** test/fixtures/local-model/replies.json, written by record-local-model.recorder.ts. */
const Recorded = z.object({
  loadMs: z.number(),
  textReact: z.array(z.object({ task: z.string(), text: z.string(), stopReason: z.string(), durationMs: z.number() })),
  constrained: z.array(
    z.object({ task: z.string(), content: z.array(AssistantBlock), stopReason: z.string(), durationMs: z.number() }),
  ),
});
const recorded = Recorded.parse(
  JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/local-model/replies.json'), 'utf8')),
);

const FORMAT_ERRORS: readonly string[] = Object.values(REACT_FORMAT_ERRORS);

describe('what SmolLM2-135M really wrote, read by the text-ReAct parser', () => {
  it.each(recorded.textReact.map((r) => [r.task, r] as const))(
    '%s: a parsed action, a final answer or a typed format error, never a crash',
    (_task, reply) => {
      const parsed = parseReAct(reply.text);
      if (parsed.kind === 'action') expect(parsed.tool.length).toBeGreaterThan(0);
      else if (parsed.kind === 'final') expect(parsed.answer.length).toBeGreaterThan(0);
      else expect(FORMAT_ERRORS).toContain(parsed.message);
    },
  );

  it('at this size the model ignores the text protocol: every recorded reply is a format error', () => {
    // Why the local provider holds tool calls to a grammar instead (see tool-reply-schema.ts).
    expect(recorded.textReact.map((r) => parseReAct(r.text).kind)).toEqual(recorded.textReact.map(() => 'error'));
  });

  it('under the tool grammar, every finished reply is a call to an offered tool or an answer; a cut one is max_tokens', () => {
    for (const reply of recorded.constrained) {
      const calls = reply.content.filter((b) => b.type === 'tool_use');
      if (reply.stopReason === 'tool_use') {
        expect(calls).toHaveLength(1);
        expect(['add', 'get_time', 'get_weather']).toContain(calls[0]?.type === 'tool_use' && calls[0].name);
      } else {
        expect(['end_turn', 'max_tokens']).toContain(reply.stopReason);
        expect(calls).toHaveLength(0);
      }
    }
    expect(recorded.constrained.filter((r) => r.stopReason === 'tool_use').length).toBeGreaterThan(0);
  });
});
