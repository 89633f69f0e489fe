import net from 'node:net';
import { DEFAULT_CODE_LIMITS, type CodeLimits } from '../../../src/tools/builtin/code';
import { runCodeChild, type CodeAnswer, type CodeLanguage } from '../../../src/tools/builtin/code/run-code-child';
import type { NetworkNamespace } from '../../../src/tools/builtin/code/network-namespace';
import type { SandboxSwitches } from '../../../src/tools/builtin/code/sandbox-layers';
import { toolContext } from '../../helpers/tool-context';

/** A real TCP server on 127.0.0.1 that counts the connections it was offered, whatever they say. */
export async function countingServer() {
  let connections = 0;
  const open = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    open.add(socket.once('close', () => open.delete(socket)));
    socket.on('error', () => undefined);
    socket.end('HTTP/1.0 200 OK\r\ncontent-length: 6\r\n\r\nsecret');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** One execution straight through the child process (no tool, no files), with test-only switches. */
export function runChild(
  language: CodeLanguage,
  code: string,
  switches: SandboxSwitches = {},
  limits: Partial<CodeLimits> = {},
  signal?: AbortSignal,
): Promise<CodeAnswer> {
  return runCodeChild(
    {
      language,
      code,
      files: [],
      globals: {},
      limits: { ...DEFAULT_CODE_LIMITS, ...limits },
      reserved: '',
      fetch: false,
    },
    toolContext(signal ? { signal } : {}),
    undefined,
    switches,
  );
}

/**
 * Python trying every way to the network it has in Pyodide, each in a task of its own: Pyodide's
 * Node socket layer (initializeNodeSockFS imports node:net itself, then plain sockets use it),
 * useNodeSockFS, `js`'s fetch, pyodide.http, urllib and a bare socket. The tasks run once the
 * program has returned; the 3.9 MB file it writes keeps the process alive while its answer crosses
 * to the worker, which is time enough (the attack of issue 78). `value` lists the import errors.
 */
export function pythonNetworkProbe(port: number): string {
  return `
import asyncio
errors = []
def attempt(name, make):
    async def run():
        try:
            await make()
        except BaseException as e:
            errors.append(name + ": " + type(e).__name__)
    asyncio.ensure_future(run())
async def sockfs():
    import pyodide_js
    await pyodide_js._api.initializeNodeSockFS()
    import socket
    socket.socket().connect(("127.0.0.1", ${port}))
async def use_node_sock():
    import pyodide_js
    await pyodide_js.useNodeSockFS()
    import socket
    socket.create_connection(("127.0.0.1", ${port}))
async def js_fetch():
    from js import fetch
    await fetch("http://127.0.0.1:${port}/")
async def py_fetch():
    from pyodide.http import pyfetch
    await pyfetch("http://127.0.0.1:${port}/")
async def url_open():
    import urllib.request
    urllib.request.urlopen("http://127.0.0.1:${port}/", timeout=2)
async def bare_socket():
    import socket
    socket.create_connection(("127.0.0.1", ${port}), timeout=2)
for name, make in [("sockfs", sockfs), ("useNodeSockFS", use_node_sock), ("js.fetch", js_fetch), ("pyfetch", py_fetch), ("urlopen", url_open), ("socket", bare_socket)]:
    attempt(name, make)
open("pad.bin", "wb").write(b"x" * 3_900_000)
importable = []
for module in ["pyodide_js", "js"]:
    try:
        __import__(module)
        importable.append(module)
    except ImportError:
        pass
importable
`;
}

/**
 * Host JavaScript in the code process (a test's stand-in for code that got out of the runtime)
 * opening the network by every module path: require, import(), process.getBuiltinModule, HTTP and
 * DNS. The program's value becomes the JSON report of what each path did.
 */
export function hostNetworkEscape(port: number): string {
  return `
  const report = {};
  const attempt = async (name, open) => {
    let emitter;
    try { emitter = await open(); } catch (e) { report[name] = 'refused: ' + e.message; return; }
    await new Promise((resolve) => {
      const done = (what) => { report[name] = report[name] || what; try { emitter.destroy(); } catch {} resolve(); };
      emitter.once('connect', () => done('connected'));
      emitter.once('response', () => done('connected'));
      emitter.once('error', (e) => done('error: ' + e.code));
      setTimeout(() => done('timeout'), 3000);
    });
  };
  await attempt('require', () => load('node:net').connect(${port}, '127.0.0.1'));
  await attempt('import', async () => (await import('node:net')).connect(${port}, '127.0.0.1'));
  await attempt('getBuiltinModule', () => process.getBuiltinModule('net').connect(${port}, '127.0.0.1'));
  await attempt('http', () => load('http').get('http://127.0.0.1:${port}/'));
  await attempt('dns', () => new Promise((resolve, reject) => load('dns').lookup('localhost', (e) => (e ? reject(e) : reject(new Error('resolved'))))));
  job.code = JSON.stringify(JSON.stringify(report));
  `;
}

/**
 * Python looking for Pyodide's internals (issue 78's review): `sys.modules['pyodide_js._api']`
 * (whose `public_api._module` holds NODEFS, SOCKFS, the package manager and loadDynlib), any module
 * in sys.modules that is itself a JsProxy, and any JsProxy held by a module or by any object the
 * garbage collector knows that leads to the API or the Emscripten module. `value` is the sorted JSON
 * list of what was found: `[]` when nothing was.
 */
export const PYODIDE_DOORS_PROBE = `
import gc, json, sys
from pyodide.ffi import JsProxy
DOORS = ("public_api", "_module", "_api", "packageManager", "loadDynlib", "NODEFS", "SOCKFS", "FS", "mountNodeFS")
def door(value):
    if not isinstance(value, JsProxy):
        return False
    for name in DOORS:
        try:
            if hasattr(value, name):
                return True
        except Exception:
            pass
    return False
found = set()
try:
    sys.modules["pyodide_js._api"]
    found.add("sys.modules['pyodide_js._api']")
except KeyError:
    pass
for name, module in list(sys.modules.items()):
    if isinstance(module, JsProxy):
        found.add("sys.modules['" + name + "']")
    for key, value in list(getattr(module, "__dict__", {}).items()):
        if door(value):
            found.add(name + "." + key)
for holder in gc.get_objects():
    for value in gc.get_referents(holder):
        if door(value):
            found.add("held by a " + type(holder).__name__)
json.dumps(sorted(found))
`;

/**
 * The variable with which a run on a machine without network namespaces (a container refusing
 * them) says it knows the namespace layer goes untested there (docs/tools-code.md).
 */
export const NO_NETNS_OPT_OUT = 'THOUGHTLINE_TEST_NO_NETNS';

/**
 * Why the namespace layer's test cannot run here, as the error that fails it; undefined where it
 * can, or where the run opted out with `THOUGHTLINE_TEST_NO_NETNS=1`. Without this, such a CI
 * would pass the layer test while never testing the layer.
 */
export function namespaceUntested(namespace: NetworkNamespace, env = process.env): Error | undefined {
  if (namespace.available || env[NO_NETNS_OPT_OUT] === '1') return undefined;
  return new Error(
    `No network namespace on this machine (${namespace.reason}), so code_run's namespace layer is untested here. ` +
      `Run where unshare --user --net works, or set ${NO_NETNS_OPT_OUT}=1 to accept that.`,
  );
}
