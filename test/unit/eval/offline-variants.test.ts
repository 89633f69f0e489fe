import { describe, expect, it } from 'vitest';
import { EvalVariant, JudgeSettings } from '../../../src/domain/evaluation';
import { offlineJudge, offlineVariants } from '../../../src/cli/commands/evaluation/offline-variants';

/*
 * Issue 79: the loop's baseline named its variant claude-sonnet-4-6 though the offline model
 * answered every run. A keyless worker's Claude variants ask the offline model by its own name.
 */

const claude = (id: string, model: string, extra: Partial<EvalVariant> = {}): EvalVariant =>
  EvalVariant.parse({ id, model: { provider: 'anthropic', model }, ...extra });

describe('offlineVariants', () => {
  it('names a Claude variant after the offline model, which it now asks for by name', () => {
    const { variants, merged } = offlineVariants([claude('claude-sonnet-4-6', 'claude-sonnet-4-6')]);
    expect(variants).toHaveLength(1);
    expect(variants[0]).toMatchObject({ id: 'offline-model', model: { provider: 'offline', model: 'offline-model' } });
    expect(variants[0]!.model!.maxTokens).toBe(2048);
    expect(merged).toEqual([]);
  });

  it('keeps an agent variant under its agent, and runs the same offline variant once', () => {
    const { variants, merged } = offlineVariants([
      claude('claude-sonnet-4-6', 'claude-sonnet-4-6'),
      claude('claude-haiku-4-5', 'claude-haiku-4-5'),
      claude('support', 'claude-sonnet-4-6', { agent: 'support' }),
      claude('support.claude-haiku-4-5', 'claude-haiku-4-5', { agent: 'support' }),
    ]);
    expect(variants.map((v) => v.id)).toEqual(['offline-model', 'support', 'support.offline-model']);
    expect(merged).toEqual(['claude-haiku-4-5']);
  });

  it('leaves alone what the offline model does not answer: other providers, models with endpoints of their own', () => {
    const local = EvalVariant.parse({ id: 'local', model: { provider: 'local', model: 'SmolLM2-135M-Instruct' } });
    const routed = claude('strong', 'claude-sonnet-4-6');
    const withEndpoint = { ...routed, model: { ...routed.model!, endpoints: ['eu'] } };
    const { variants } = offlineVariants([local, withEndpoint]);
    expect(variants[0]).toBe(local);
    expect(variants[1]).toBe(withEndpoint);
  });

  it('asks the offline model for a Claude judge', () => {
    const judge = JudgeSettings.parse({ model: { provider: 'anthropic', model: 'claude-sonnet-4-6' } });
    expect(offlineJudge(judge).model).toMatchObject({ provider: 'offline', model: 'offline-model' });
  });
});
