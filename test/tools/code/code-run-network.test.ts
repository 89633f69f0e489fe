import { afterEach, describe, expect, it } from 'vitest';
import { createCodeRunTool } from '../../../src/tools/builtin/code';
import { execute } from './code-run-helpers';
import { countingServer, hostNetworkEscape, pythonNetworkProbe, runChild } from './code-run-probes';

let server: Awaited<ReturnType<typeof countingServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The three layers that each deny the network; the controls switch all of them off. */
const NETWORK_LAYERS = ['network-namespace', 'network-modules', 'pyodide-api'] as const;

describe('code_run has no network (issue 78, defect 1)', () => {
  it('Python reaches no TCP server on 127.0.0.1 by any path, and the same probe connects with the barrier off', async () => {
    server = await countingServer();
    const tool = createCodeRunTool({ root: '/nonexistent-code-root', languages: ['python'] });
    const result = await execute(tool, { language: 'python', code: pythonNetworkProbe(server.port) });
    // The tasks had the answer's transfer to run in; give a connection time to land.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.connections()).toBe(0);
    expect(result).toMatchObject({ ok: true, value: '[]' });
    // The control: the same probe, the network's three layers off, connects (so the probe is sound).
    const control = await runChild('python', pythonNetworkProbe(server.port), { off: NETWORK_LAYERS });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(control.value).toBe("['pyodide_js', 'js']");
    expect(server.connections()).toBeGreaterThan(0);
  });

  it('JavaScript reaches nothing from QuickJS, nor from host code by require, import(), getBuiltinModule, HTTP or DNS', async () => {
    server = await countingServer();
    const tool = createCodeRunTool({ root: '/nonexistent-code-root', languages: ['javascript'] });
    for (const probe of [
      `require("net")`,
      `import("node:net")`,
      `fetch("http://127.0.0.1:${server.port}/")`,
      `this.constructor.constructor("return process")().getBuiltinModule("net")`,
    ])
      expect((await execute(tool, { language: 'javascript', code: probe })).ok, probe).toBe(false);
    const escaped = await runChild('javascript', '0', { escape: hostNetworkEscape(server.port) });
    const report = JSON.parse(escaped.value!) as Record<string, string>;
    expect(report).toEqual({
      require: 'refused: code_run has no network: net is not available in the sandbox',
      import: 'refused: code_run has no network: net is not available in the sandbox',
      // The lockdown removes it too (the network layer refuses it when the lockdown is off: code-run-layers).
      getBuiltinModule: 'refused: process.getBuiltinModule is not a function',
      http: 'refused: code_run has no network: http is not available in the sandbox',
      dns: 'refused: code_run has no network: dns is not available in the sandbox',
    });
    expect(server.connections()).toBe(0);
    // The control: the same host code with the network's layers off connects by every path.
    const control = await runChild('javascript', '0', { escape: hostNetworkEscape(server.port), off: NETWORK_LAYERS });
    expect(JSON.parse(control.value!)).toMatchObject({ require: 'connected', import: 'connected', http: 'connected' });
    expect(server.connections()).toBeGreaterThanOrEqual(3);
  });
});
