import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { message, renderStreamEvents, textBlock, toolUseBlock, type FakeContentBlock } from '../../src/testing';
import { sseText } from '../../src/testing/render-stream';
import { BENCH_TOOL } from './bench-tools';

/** `push plan: N iterations[ then ask]` in the system prompt: what a run asks of this model. */
export const pushPlan = (iterations: number, ask = false): string =>
  `push plan: ${iterations} iterations${ask ? ' then ask' : ''}`;
const PLAN = /push plan: (\d+) iterations( then ask)?/;

/** Marks the moment a text piece was written: ` ⟦<epoch ms>⟧`, a word of its own. */
export const STAMP = /⟦(\d+(?:\.\d+)?)⟧/g;

export interface TimedMessagesServer {
  baseUrl: string;
  close(): Promise<void>;
}

interface WireBlock {
  type: string;
  name?: string;
  input?: { n?: number };
}

async function readJson(
  req: IncomingMessage,
): Promise<{ system?: unknown; model?: string; messages?: Array<{ role: string; content: string | WireBlock[] }> }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** The reply's blocks from the request alone: calls the bench tool n = 1…N, optionally asks, then finishes. */
function nextContent(body: Awaited<ReturnType<typeof readJson>>): FakeContentBlock[] {
  const system = typeof body.system === 'string' ? body.system : JSON.stringify(body.system ?? '');
  const plan = PLAN.exec(system);
  const last = [...(body.messages ?? [])].reverse().find((m) => m.role === 'assistant' && Array.isArray(m.content))
    ?.content as WireBlock[] | undefined;
  const lastUse = last?.find((b) => b.type === 'tool_use');
  const done = lastUse?.name === BENCH_TOOL ? Number(lastUse.input?.n ?? 0) : 0;
  // The text is replaced piece by piece with write-time stamps; its length sets the piece count.
  const words = textBlock('thinking about the next step');
  if (!plan || lastUse?.name === 'ask_person') return [words, toolUseBlock('finish', { result: 'done' })];
  if (done < Number(plan[1])) return [words, toolUseBlock(BENCH_TOOL, { n: done + 1 })];
  if (plan[2]) return [words, toolUseBlock('ask_person', { question: 'May I finish?' })];
  return [words, toolUseBlock('finish', { result: `called ${BENCH_TOOL} ${done} times` })];
}

/**
 * A streaming stand-in for the Messages API, rendered by src/testing's `renderStreamEvents`, that
 * writes each text piece as the moment it was written (`⟦Date.now()⟧`), `gapMs` apart: a client in
 * this process that receives the piece knows how long the token took to reach it, on one clock.
 */
export async function startTimedMessagesServer(gapMs: number): Promise<TimedMessagesServer> {
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readJson(req);
      const events = renderStreamEvents(message(nextContent(body)), body.model ?? 'bench');
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'request-id': 'req_bench',
      });
      res.socket?.setNoDelay(true);
      for (const event of events) {
        const data = event.data as { delta?: { type?: string; text?: string } };
        if (data.delta?.type === 'text_delta') {
          await new Promise((r) => setTimeout(r, gapMs));
          // A piece opens with a space, as the Messages API's tokens do (" about"): watchers get text a
          // word at a time (a word is held until it ends, for redaction), so a piece waits for the next.
          data.delta.text = ` ⟦${Date.now()}⟧`;
        }
        res.write(sseText(event));
      }
      res.end();
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
