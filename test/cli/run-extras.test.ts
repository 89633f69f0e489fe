import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/spec/usage-error';
import { runExtras } from '../../src/cli/run-inputs/run-extras';

const agentsFile = (agents: unknown): string => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agents-')), 'agents.json');
  fs.writeFileSync(file, JSON.stringify(agents));
  return file;
};

describe('run flags into the agent input', () => {
  it('--allow-questions offers the question tool', () => {
    expect(runExtras({ allowQuestions: true })).toEqual({ allowQuestions: true });
    expect(runExtras({})).toEqual({});
  });

  it('--branches N turns on branching with at most N approaches a call, and refuses a count outside 2 to 4', () => {
    expect(runExtras({ branches: '3' })).toEqual({ branching: { maxBranches: 3 } });
    for (const bad of ['1', '5', '2.5', 'two'])
      expect(() => runExtras({ branches: bad })).toThrow(
        `--branches must be a whole number from 2 to 4, not "${bad}".`,
      );
  });

  it('refuses a sub-agent naming a tool the worker does not serve, listing the known tools', () => {
    const file = agentsFile({
      researcher: { description: 'Finds facts', tools: ['get_weather', 'web_search'] },
      writer: { description: 'Writes', tools: ['researcher', 'save_report'] },
    });
    const check = () => runExtras({ agents: file, registeredTools: ['get_weather', 'save_report'] });
    expect(check).toThrow(UsageError);
    expect(check).toThrow(
      `--agents ${file}: "researcher" names the tool "web_search", which this run's worker does not serve. Known tools: get_weather, save_report; agents in the file: researcher, writer.`,
    );
  });

  it('accepts registered tools and catalogue agents, and skips the check when the worker is elsewhere', () => {
    const file = agentsFile({
      lead: { description: 'Leads', tools: ['helper', 'get_weather'] },
      helper: { description: 'Helps', tools: ['remote_tool'] },
    });
    expect(() => runExtras({ agents: file, registeredTools: ['get_weather', 'remote_tool'] })).not.toThrow();
    expect(Object.keys(runExtras({ agents: file }).agents ?? {})).toEqual(['lead', 'helper']);
  });

  it('bad flags are usage mistakes', () => {
    expect(() => runExtras({ template: 'nope' })).toThrow(UsageError);
    expect(() => runExtras({ agents: agentsFile({ x: { tools: [] } }) })).toThrow(UsageError);
  });
});
