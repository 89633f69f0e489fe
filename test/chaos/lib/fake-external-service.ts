import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the external system a tool changes (a bank, a mailer) over real HTTP. It applies
 * each idempotency key's effect once: a repeat of a key is answered with the stored result and
 * flagged, never applied again. Every attempt is recorded with its arrival time, so a test can
 * tell which repeats a worker kill explains.
 */
export interface EffectAttempt {
  key: string;
  tool: string;
  args: Record<string, unknown>;
  /** performance.now() at arrival. */
  at: number;
  /** False when the key had been applied before: the service deduplicated this attempt. */
  applied: boolean;
  /** The service kept the answer back until the caller went away. */
  held: boolean;
  /** The pid of the worker process that sent it, when the tool says. */
  worker?: number;
}

export interface AppliedEffect {
  key: string;
  tool: string;
  args: Record<string, unknown>;
  result: Record<string, unknown>;
}

export interface ExternalServiceHooks {
  /** Called once the effect is applied (or deduplicated); `hold` keeps the answer back until the caller disconnects. */
  onEffect?(attempt: EffectAttempt): 'reply' | 'hold';
  /** Called once an answer has been written in full. */
  onReplied?(attempt: EffectAttempt): void;
}

export interface FakeExternalService {
  /** Tools POST `{ key, tool, args, worker? }` to `${url}/effects`. */
  readonly url: string;
  readonly attempts: readonly EffectAttempt[];
  /** The effects applied, one per idempotency key. */
  readonly applied: ReadonlyMap<string, AppliedEffect>;
  /** Malformed requests; a test expects none. */
  readonly errors: readonly string[];
  close(): Promise<void>;
}

export async function startFakeExternalService(hooks: ExternalServiceHooks = {}): Promise<FakeExternalService> {
  const attempts: EffectAttempt[] = [];
  const applied = new Map<string, AppliedEffect>();
  const errors: string[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = performance.now();
    const body = await readJson(req);
    if (req.method !== 'POST' || req.url !== '/effects' || !isEffectRequest(body)) {
      errors.push(`bad request ${req.method} ${req.url}: ${JSON.stringify(body)}`);
      res.writeHead(400).end();
      return;
    }
    const earlier = applied.get(body.key);
    const attempt: EffectAttempt = {
      key: body.key,
      tool: body.tool,
      args: body.args,
      at,
      applied: earlier === undefined,
      held: false,
      ...(typeof body.worker === 'number' ? { worker: body.worker } : {}),
    };
    attempts.push(attempt);
    // The receipt makes the result long enough (over 256 characters) that the next model call names
    // it by hash (a known text), so a killed worker's successor must get it back from the run.
    const receipt = `${body.tool} ${JSON.stringify(body.args)}; `.repeat(12);
    const effect = earlier ?? {
      key: body.key,
      tool: body.tool,
      args: body.args,
      result: { ok: true, effect: body.tool, ...body.args, receipt },
    };
    applied.set(body.key, effect);
    if (hooks.onEffect?.(attempt) === 'hold') {
      // Applied, but the caller never hears so: its activity cannot complete.
      attempt.held = true;
      return;
    }
    res.on('finish', () => hooks.onReplied?.(attempt));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(effect.result));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      errors.push(`handler crashed: ${String(err)}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    attempts,
    applied,
    errors,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
  });
}

function isEffectRequest(
  body: unknown,
): body is { key: string; tool: string; args: Record<string, unknown>; worker?: unknown } {
  const b = body as { key?: unknown; tool?: unknown; args?: unknown } | undefined;
  return typeof b?.key === 'string' && typeof b.tool === 'string' && typeof b.args === 'object' && b.args !== null;
}
