import type { ChildProcess } from 'node:child_process';
import type { ScaleWorkerMessage } from './scale-worker';

/** The next message of `type` from a bench worker process, or why none came. */
export function nextMessage(
  child: ChildProcess,
  type: ScaleWorkerMessage['type'],
  timeoutMs: number,
): Promise<ScaleWorkerMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => done(new Error(`the scale worker sent no '${type}' within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onMessage = (m: ScaleWorkerMessage) => m.type === type && done(undefined, m);
    const onExit = (code: number | null) => done(new Error(`the scale worker exited (code ${code}) before '${type}'`));
    function done(err?: Error, m?: ScaleWorkerMessage): void {
      clearTimeout(timer);
      child.off('message', onMessage).off('exit', onExit);
      if (m) resolve(m);
      else reject(err);
    }
    child.on('message', onMessage).on('exit', onExit);
  });
}
