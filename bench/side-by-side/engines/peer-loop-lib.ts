import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findProjectRoot } from '../../../src/dev-server/project-paths';

/** The shared loop script and marks every engine uses (bench/peers/engines/lib), typed for TypeScript. */
export interface LoopScript {
  TOOL_NAME: string;
  answerFor(iterations: number): string;
  modelTurn(at: { toolResults: number; iterations: number; conversationChars: number }): {
    thought: string;
    call?: { name: string; input: { n: number } };
    answer?: string;
    inputTokens: number;
    outputTokens: number;
  };
  observation(n: number, bytes: number): string;
  modelDelay(ms: number): Promise<void>;
}
export interface Marks {
  mark(runId: string, kind: 'model' | 'tool', index: number, phase: 'start' | 'end'): void;
}
export interface EngineIo {
  main(handlers: Record<string, (request: Record<string, unknown>) => Promise<unknown>>): Promise<void>;
  log(...parts: unknown[]): void;
}

const libFile = (name: string): string =>
  pathToFileURL(path.join(findProjectRoot(), 'bench', 'peers', 'engines', 'lib', name)).href;

/** Plain .mjs shared with the peers' package: imported at run time so tsc leaves it alone. */
export async function loadPeerLib(): Promise<{
  script: LoopScript;
  createMarks: (dir: string) => Marks;
  now: () => number;
  io: EngineIo;
}> {
  const [script, marks, io] = await Promise.all([
    import(libFile('loop-script.mjs')) as Promise<LoopScript>,
    import(libFile('marks.mjs')) as Promise<{ createMarks: (dir: string) => Marks; now: () => number }>,
    import(libFile('engine-io.mjs')) as Promise<EngineIo>,
  ]);
  return { script, createMarks: marks.createMarks, now: marks.now, io };
}
