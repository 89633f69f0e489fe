import type { ModelProvider } from '../../src/activities';
import { createScriptedModel, type ScriptedModel, type ScriptedTurn } from '../../src/activities/models/scripted-model';

/**
 * The model of a thread test's worker: a scripted model per key, chosen by the key the request's
 * first message holds. A turn's message also quotes the earlier turns (its context), so the most
 * recently scripted key that appears wins. `hold` keeps a key's calls waiting until released.
 */
export function threadModels(): ModelProvider & {
  script(key: string, turns: readonly ScriptedTurn[]): ScriptedModel;
  hold(key: string, turns: readonly ScriptedTurn[]): { model: ScriptedModel; release(): void };
  /** Each call of the key waits for a `release()` of its own: the test paces the run turn by turn. */
  holdTurns(key: string, turns: readonly ScriptedTurn[]): { model: ScriptedModel; release(): void };
} {
  const scripts: Array<{ key: string; model: ModelProvider }> = [];
  const firstText = (request: Parameters<ModelProvider['complete']>[0]): string =>
    request.messages[0]?.content.map((b) => ('text' in b ? b.text : '')).join('') ?? '';
  return {
    name: 'scripted',
    script(key, turns) {
      const model = createScriptedModel(turns);
      scripts.push({ key, model });
      return model;
    },
    hold(key, turns) {
      const model = createScriptedModel(turns);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      scripts.push({
        key,
        model: { name: 'held', complete: async (...args) => (await gate, model.complete(...args)) },
      });
      return { model, release };
    },
    holdTurns(key, turns) {
      const model = createScriptedModel(turns);
      let released = 0;
      const waiting: Array<() => void> = [];
      let calls = 0;
      const turn = (): Promise<void> =>
        new Promise((resolve) => (calls++ < released ? resolve() : waiting.push(resolve)));
      scripts.push({
        key,
        model: { name: 'held', complete: async (...args) => (await turn(), model.complete(...args)) },
      });
      const release = () => {
        released += 1;
        waiting.shift()?.();
      };
      return { model, release };
    },
    async complete(request, signal, hooks) {
      const text = firstText(request);
      for (let i = scripts.length - 1; i >= 0; i--)
        if (text.includes(scripts[i]!.key)) return scripts[i]!.model.complete(request, signal, hooks);
      throw new Error(`no script for ${text.slice(0, 80)}`);
    },
  };
}
