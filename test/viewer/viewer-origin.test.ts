import { describe, expect, it } from 'vitest';
import { originText, type RunOrigin } from '../../src/domain/run/run-origin';
import { viewerModule } from './viewer-module';

interface FormatModule {
  originText(origin: unknown): string;
  experimentText(experiment: unknown): string;
}

describe("the viewer's run origin line", () => {
  const origins: RunOrigin[] = [
    { kind: 'schedule', schedule: 'nightly' },
    { kind: 'trigger', trigger: 'deploys', deliveryId: 'd-1' },
  ];

  it('says what the server says, for a schedule and a webhook delivery', async () => {
    const viewer = await viewerModule<FormatModule>('format.js');
    for (const origin of origins) expect(viewer.originText(origin)).toBe(originText(origin));
    expect(viewer.originText(origins[0])).toBe('scheduled by nightly');
    expect(viewer.originText(origins[1])).toBe('triggered by webhook deploys, delivery d-1');
  });

  it('says nothing for a run its caller started, or an origin it cannot read', async () => {
    const viewer = await viewerModule<FormatModule>('format.js');
    for (const unreadable of [undefined, null, 'schedule', { kind: 'cron' }])
      expect(viewer.originText(unreadable)).toBe('');
  });
});

describe("the viewer's experiment line", () => {
  it('names the experiment and the variant, and nothing for a run outside one or a value it cannot read', async () => {
    const viewer = await viewerModule<FormatModule>('format.js');
    expect(viewer.experimentText({ name: 'tone', variant: 'warm' })).toBe('experiment tone: warm');
    for (const unreadable of [undefined, null, 'tone', { name: 'tone' }, { name: 1, variant: 'warm' }])
      expect(viewer.experimentText(unreadable)).toBe('');
  });
});
