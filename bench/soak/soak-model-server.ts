import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { message, renderStreamEvents, textBlock, toolUseBlock, type FakeContentBlock } from '../../src/testing';
import { sseText } from '../../src/testing/render-stream';
import { SOAK_TASK, soakTask } from './soak-mix';

/**
 * The soak's model: a stand-in for the Messages API that answers from the request alone (the task
 * names the run's kind, label and steps; its last `slow_job` call says how far it got), so any
 * worker, any retry and any run reach the same answer. It keeps no request, only the moment each
 * run's first call arrived: an hour of load must not grow the soak's own memory.
 */
export interface SoakModelServer {
  baseUrl: string;
  /** performance.now() when a run's first model call arrived, by the label in its task. */
  readonly firstCallAt: ReadonlyMap<string, number>;
  readonly calls: () => number;
  /** Requests the model could not read (none expected). */
  readonly errors: readonly string[];
  close(): Promise<void>;
}

interface WireBlock {
  type: string;
  name?: string;
  input?: { step?: number };
  text?: string;
}
interface WireMessage {
  role: string;
  content: string | WireBlock[];
}

async function readBody(req: IncomingMessage): Promise<{ model?: string; messages?: WireMessage[] }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const textOf = (m: WireMessage | undefined): string =>
  m === undefined ? '' : typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? '').join(' ');

/** The next reply: a job's next step or its end; a lead's delegation, then its end. */
export function soakReply(messages: readonly WireMessage[]): { label: string; content: FakeContentBlock[] } {
  const task = SOAK_TASK.exec(textOf(messages.find((m) => m.role === 'user')));
  if (!task) throw new Error('not a soak run');
  const [, kind, label, steps] = task as unknown as [string, string, string, string];
  const uses = messages
    .filter((m) => m.role === 'assistant' && Array.isArray(m.content))
    .flatMap((m) => (m.content as WireBlock[]).filter((b) => b.type === 'tool_use'));
  const finish = [textBlock(`${label} is done.`), toolUseBlock('finish', { result: `${label} done` })];
  if (kind === 'team') {
    if (uses.length > 0) return { label, content: finish };
    const child = soakTask('child', `${label}c`, Number(steps));
    return { label, content: [textBlock('Delegating the job.'), toolUseBlock('helper', { task: child })] };
  }
  const last = uses.filter((b) => b.name === 'slow_job').at(-1);
  const next = last === undefined ? 0 : Number(last.input?.step ?? 0) + 1;
  if (next >= Number(steps)) return { label, content: finish };
  return {
    label,
    content: [textBlock(`Step ${next} of ${label} is next.`), toolUseBlock('slow_job', { run: label, step: next })],
  };
}

export async function startSoakModelServer(o: { delayMs: number }): Promise<SoakModelServer> {
  const firstCallAt = new Map<string, number>();
  const errors: string[] = [];
  let calls = 0;
  const server = createServer((req, res) => {
    const at = performance.now();
    void (async () => {
      const body = await readBody(req);
      calls += 1;
      const { label, content } = soakReply(body.messages ?? []);
      if (!firstCallAt.has(label)) firstCallAt.set(label, at);
      await new Promise((resolve) => setTimeout(resolve, o.delayMs));
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'request-id': 'req_soak' });
      for (const event of renderStreamEvents(message(content), body.model ?? 'soak')) res.write(sseText(event));
      res.end();
    })().catch((err: unknown) => {
      if (errors.length < 100) errors.push(String(err));
      res.writeHead(400, { 'x-should-retry': 'false' }).end(JSON.stringify({ type: 'error', error: String(err) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    firstCallAt,
    calls: () => calls,
    errors,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
