import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCodeRunTool } from '../../../src/tools/builtin/code';
import { networkNamespace } from '../../../src/tools/builtin/code/network-namespace';
import { PROCESS_KEPT } from '../../../src/tools/builtin/code/process-kept';
import { SANDBOX_LAYERS, type SandboxLayer } from '../../../src/tools/builtin/code/sandbox-layers';
import {
  countingServer,
  hostNetworkEscape,
  namespaceUntested,
  PYODIDE_DOORS_PROBE,
  pythonNetworkProbe,
  runChild,
} from './code-run-probes';

/**
 * Each layer of the sandbox on its own: an attack that gets through with that layer off and is
 * stopped with it on. Most attacks are host JavaScript in the code process (`escape`), standing for
 * code that got out of the runtime, since that is what the process-level layers are for. The
 * network's three layers overlap by design, so each is tested with the other two off.
 */
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const report = (value: string | undefined) => JSON.parse(value!) as Record<string, unknown>;
/** Host code whose report (a JSON object) becomes the program's value. */
const reporting = (body: string) => `const report = {}; ${body}; job.code = JSON.stringify(JSON.stringify(report));`;
const tested = new Set<SandboxLayer>();

describe("code_run's barriers, each on its own (issue 78)", () => {
  it('the network namespace alone keeps host code off 127.0.0.1', async () => {
    tested.add('network-namespace');
    const namespace = networkNamespace();
    if (!namespace.available) {
      // A machine without namespaces (a container refusing them): the tool must say so to the model,
      // and this test fails unless the run opted out (THOUGHTLINE_TEST_NO_NETNS=1).
      expect(createCodeRunTool({ root: '/nonexistent-code-root' }).description).toContain('no network namespace');
      const untested = namespaceUntested(namespace);
      if (untested) throw untested;
      return;
    }
    const server = await countingServer();
    cleanups.push(server.close);
    const on = await runChild('javascript', '0', { escape: hostNetworkEscape(server.port), off: ['network-modules'] });
    expect(report(on.value)).toMatchObject({ require: 'error: ENETUNREACH', import: 'error: ENETUNREACH' });
    expect(server.connections()).toBe(0);
    const off = await runChild('javascript', '0', {
      escape: hostNetworkEscape(server.port),
      off: ['network-modules', 'network-namespace'],
    });
    expect(report(off.value)).toMatchObject({ require: 'connected', import: 'connected' });
    expect(server.connections()).toBeGreaterThan(0);
  });

  it('without network namespaces, the namespace test fails unless the run opts out', () => {
    const missing = { available: false, reason: 'unshare --user --net and --net are refused here' } as const;
    expect(namespaceUntested(missing, {})?.message).toMatch(
      /namespace layer is untested here.*THOUGHTLINE_TEST_NO_NETNS=1/,
    );
    expect(namespaceUntested(missing, { THOUGHTLINE_TEST_NO_NETNS: 'yes' })).toBeInstanceOf(Error);
    expect(namespaceUntested(missing, { THOUGHTLINE_TEST_NO_NETNS: '1' })).toBeUndefined();
    expect(namespaceUntested({ available: true, prefix: [] }, {})).toBeUndefined();
  });

  it('the module hooks alone refuse every network module, to require, import() and getBuiltinModule', async () => {
    tested.add('network-modules');
    const server = await countingServer();
    cleanups.push(server.close);
    // The lockdown off too: it would remove getBuiltinModule, and this layer must refuse it alone.
    const base: SandboxLayer[] = ['network-namespace', 'lockdown'];
    const on = await runChild('javascript', '0', { escape: hostNetworkEscape(server.port), off: base });
    const refused = expect.stringMatching(/^refused: code_run has no network/);
    expect(report(on.value)).toEqual({
      require: refused,
      import: refused,
      getBuiltinModule: refused,
      http: refused,
      dns: refused,
    });
    expect(server.connections()).toBe(0);
    const off = await runChild('javascript', '0', {
      escape: hostNetworkEscape(server.port),
      off: [...base, 'network-modules'],
    });
    expect(report(off.value)).toMatchObject({
      require: 'connected',
      import: 'connected',
      getBuiltinModule: 'connected',
    });
    expect(server.connections()).toBeGreaterThanOrEqual(3);
  });

  it("Pyodide's API removal alone keeps Python's socket layer closed and Pyodide's internals out of reach", async () => {
    tested.add('pyodide-api');
    const server = await countingServer();
    cleanups.push(server.close);
    const others: SandboxLayer[] = ['network-namespace', 'network-modules'];
    const on = await runChild('python', pythonNetworkProbe(server.port), { off: others });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(on.value).toBe('[]');
    expect(server.connections()).toBe(0);
    // With it off too, the same probe connects: code-run-network.test.ts (its control).

    // From Python: no module, no object the collector knows, leads to Pyodide's API or its module.
    expect(JSON.parse((await runChild('python', PYODIDE_DOORS_PROBE, { off: others })).value!)).toEqual([]);
    const reachable = JSON.parse(
      (await runChild('python', PYODIDE_DOORS_PROBE, { off: [...others, 'pyodide-api'] })).value!,
    );
    expect(reachable).toEqual(expect.arrayContaining(["sys.modules['pyodide_js._api']", "sys.modules['pyodide_js']"]));

    // From JavaScript holding the runtime (an escape from Python at its worst): the entry points are gone.
    const doors = reporting(`
      const module = pyodide._module;
      for (const [name, value] of Object.entries({ NODEFS: module.NODEFS, 'FS.mount': module.FS.mount,
        FS_mount: module.FS_mount, 'FS.filesystems.NODEFS': module.FS.filesystems.NODEFS, loadDynlib: pyodide._api.loadDynlib,
        packageManager: pyodide._api.packageManager, mountNodeFS: pyodide.mountNodeFS, useNodeSockFS: pyodide.useNodeSockFS }))
        report[name] = typeof value;
    `);
    const closed = report((await runChild('python', '0', { escape: doors, off: others })).value);
    expect(Object.values(closed)).toEqual(Array(8).fill('undefined'));
    const open = report((await runChild('python', '0', { escape: doors, off: [...others, 'pyodide-api'] })).value);
    expect(Object.values(open)).not.toContain('undefined');
  });

  it('the permission model alone refuses reads outside the runtimes, child processes and workers', async () => {
    tested.add('permission');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'code-run-layers-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const secret = path.join(dir, 'secret.txt');
    fs.writeFileSync(secret, 'worker-secret');
    const escape = reporting(`
      try { report.read = load('node:fs').readFileSync(${JSON.stringify(secret)}, 'utf8'); } catch (e) { report.read = e.code; }
      try { report.spawn = String(load('node:child_process').execFileSync(process.execPath, ['-p', '6 * 7'])).trim(); } catch (e) { report.spawn = e.code; }
      try { const w = new (load('node:worker_threads').Worker)('0', { eval: true }); report.worker = 'started'; await w.terminate(); } catch (e) { report.worker = e.code; }
    `);
    // The lockdown off on both sides: it removes process.execPath and execArgv, without which
    // child_process fails before the permission model is asked.
    const on = await runChild('javascript', '0', { escape, off: ['lockdown'] });
    expect(report(on.value)).toEqual({
      read: 'ERR_ACCESS_DENIED',
      spawn: 'ERR_ACCESS_DENIED',
      worker: 'ERR_ACCESS_DENIED',
    });
    const off = await runChild('javascript', '0', { escape, off: ['permission', 'lockdown'] });
    expect(report(off.value)).toEqual({ read: 'worker-secret', spawn: '42', worker: 'started' });
  });

  it('no code generation from strings alone keeps Function and eval from compiling', async () => {
    tested.add('no-code-generation');
    const escape = reporting(`
      try { report.fn = Function('return 6 * 7')(); } catch (e) { report.fn = e.name; }
      try { report.eval = (0, eval)('6 * 7'); } catch (e) { report.eval = e.name; }
    `);
    expect(report((await runChild('javascript', '0', { escape })).value)).toEqual({
      fn: 'EvalError',
      eval: 'EvalError',
    });
    const off = await runChild('javascript', '0', { escape, off: ['no-code-generation'] });
    expect(report(off.value)).toEqual({ fn: 42, eval: 42 });
  });

  it('the lockdown alone keeps only its allow-list on process: host code cannot signal a process or open its inspector', async () => {
    tested.add('lockdown');
    // Plain node processes the test starts: targets of kill, of _kill, and of _debugProcess (whose
    // inspector would listen on a port of its own choosing, so nothing else on the machine interferes).
    const started = () => {
      const child = spawn(process.execPath, ['--inspect-port=0', '-e', 'setTimeout(() => {}, 60_000)'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      cleanups.push(() => child.kill('SIGKILL'));
      const alive = () => child.exitCode === null && child.signalCode === null;
      const killed = () => new Promise((resolve) => (alive() ? child.once('exit', resolve) : resolve(undefined)));
      return { pid: child.pid!, alive, killed, signal: () => child.signalCode, stderr: () => stderr };
    };
    const targets = () => ({ kill: started(), _kill: started(), debugged: started() });
    const escape = (t: ReturnType<typeof targets>) =>
      reporting(`
      report.require = typeof globalThis.require;
      try { process.kill(${t.kill.pid}, 'SIGKILL'); report.kill = 'sent'; } catch (e) { report.kill = e.name; }
      try { report._kill = process._kill(${t._kill.pid}, 9); } catch (e) { report._kill = e.name; }
      try { process._debugProcess(${t.debugged.pid}); report._debugProcess = 'sent'; } catch (e) { report._debugProcess = e.name; }
      report.left = Object.getOwnPropertyNames(process);
      process.emitWarning('still warns'); // the kept internals still work: the answer below must arrive
    `);
    const debuggerListening = /Debugger listening on ws:\/\/127\.0\.0\.1:/;

    const spared = targets();
    const on = report((await runChild('javascript', '0', { escape: escape(spared) })).value);
    expect(on).toMatchObject({
      require: 'undefined',
      kill: 'TypeError',
      _kill: 'TypeError',
      _debugProcess: 'TypeError',
    });
    expect((on.left as string[]).filter((name) => !PROCESS_KEPT.includes(name))).toEqual([]);

    const hit = targets();
    const off = report((await runChild('javascript', '0', { escape: escape(hit), off: ['lockdown'] })).value);
    expect(off).toMatchObject({ require: 'function', kill: 'sent', _kill: 0, _debugProcess: 'sent' });
    expect(off.left).toEqual(expect.arrayContaining(['_kill', '_debugProcess', 'dlopen', 'binding']));
    await Promise.all([hit.kill.killed(), hit._kill.killed()]);
    expect([hit.kill.signal(), hit._kill.signal()]).toEqual(['SIGKILL', 'SIGKILL']);
    await expect.poll(hit.debugged.stderr, { timeout: 5_000 }).toMatch(debuggerListening);

    // The same time has passed for the first three: nothing reached them.
    expect([spared.kill.alive(), spared._kill.alive(), spared.debugged.alive()]).toEqual([true, true, true]);
    expect(spared.debugged.stderr()).not.toMatch(debuggerListening);
  });

  it("the empty environment alone keeps the worker's secrets out of the process", async () => {
    tested.add('empty-env');
    process.env.CODE_RUN_LAYER_SECRET = 'sk-layer-secret';
    cleanups.push(() => delete process.env.CODE_RUN_LAYER_SECRET);
    const escape = reporting(`report.secret = process.env.CODE_RUN_LAYER_SECRET ?? null`);
    expect(report((await runChild('javascript', '0', { escape })).value)).toEqual({ secret: null });
    const off = await runChild('javascript', '0', { escape, off: ['empty-env'] });
    expect(report(off.value)).toEqual({ secret: 'sk-layer-secret' });
  });

  it('the memory watchdog alone stops a program that grows past its limit', async () => {
    tested.add('memory-watchdog');
    // About 150 MB of strings, then done: QuickJS's own limit does not count them in this build.
    const bomb = 'var a = []; for (let i = 0; i < 150; i++) a.push("x".repeat(1 << 20) + i); "survived"';
    const limits = { memoryBytes: 16 * 1024 * 1024, cpuMs: 20_000 };
    await expect(runChild('javascript', bomb, {}, limits)).rejects.toThrow(/memory limit of 16777216 bytes/);
    expect((await runChild('javascript', bomb, { off: ['memory-watchdog'] }, limits)).value).toBe('survived');
  });

  it('the CPU deadline alone stops host code that never yields', async () => {
    tested.add('cpu-deadline');
    // QuickJS's interrupt cannot stop host code: only the parent's kill does.
    const spin = 'for (;;) {}';
    const started = Date.now();
    await expect(runChild('javascript', '0', { escape: spin }, { cpuMs: 300 })).rejects.toThrow(/CPU limit of 300 ms/);
    expect(Date.now() - started).toBeLessThan(10_000);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new Error('still running after 3 s')), 3_000);
    cleanups.push(() => clearTimeout(timer));
    await expect(
      runChild('javascript', '0', { escape: spin, off: ['cpu-deadline'] }, { cpuMs: 300 }, abort.signal),
    ).rejects.toThrow('still running after 3 s');
  });

  it('every layer has a test of its own above', () => {
    expect([...tested].sort()).toEqual([...SANDBOX_LAYERS].sort());
  });
});
