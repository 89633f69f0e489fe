import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/tools/define-tool';
import { localToolsWithoutCache } from '../../src/tools/local-tools-without-cache';

const tool = (name: string, local: boolean) =>
  defineTool({ name, description: name, input: z.object({}), local, execute: () => 'ok' });

describe('localToolsWithoutCache', () => {
  it('names the local tools of a worker without a workflow cache', () => {
    const warning = localToolsWithoutCache([tool('convert', true), tool('search', false), tool('add', true)], 0);
    expect(warning).toContain('Local tools (convert, add)');
    expect(warning).toContain('maxCachedWorkflows: 0');
    expect(warning).not.toContain('search');
  });

  it('says nothing with a cache, the default cache, or no local tool', () => {
    expect(localToolsWithoutCache([tool('convert', true)], 1)).toBeUndefined();
    expect(localToolsWithoutCache([tool('convert', true)], undefined)).toBeUndefined();
    expect(localToolsWithoutCache([tool('search', false)], 0)).toBeUndefined();
  });
});
