import type { ModelProvider } from '../../src/activities';
import type { ScriptedModel } from '../../src/activities/models/scripted-model';

/**
 * One provider for a whole tree: each agent of a test names its own model, and its requests go
 * to that model's script, so parallel children never take each other's turns.
 */
export function modelsByName(scripts: Record<string, ScriptedModel>): ModelProvider & { verify(): void } {
  return {
    name: 'scripted',
    async complete(request, signal, hooks) {
      const script = scripts[request.model];
      if (!script) throw new Error(`No script for model ${request.model}; known: ${Object.keys(scripts).join(', ')}`);
      return script.complete(request, signal, hooks);
    },
    verify() {
      for (const script of Object.values(scripts)) script.verify();
    },
  };
}

export const scripted = (model: string) => ({ provider: 'scripted', model }) as const;
