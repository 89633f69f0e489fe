import { PROCESS_KEPT } from './process-kept';
import { SANDBOX_OFF_FLAG } from './sandbox-layers';

/** Marks the code processes in `ps`, so an operator (and a test) can tell them apart. */
export const CODE_CHILD_MARKER = 'thoughtline-code-run';

/**
 * The program with `escape` (the body of an async function of `job`, run in this process's own
 * realm after `ready`) spliced in: a test's stand-in for code that got out of the runtime, to show
 * which layer stops what it then tries. Never used outside tests; the worker runs `CODE_CHILD_SOURCE`.
 */
export function codeChildSource(escape = ''): string {
  return CHILD_PROGRAM.replace('/*ESCAPE*/', () => escape);
}

const CHILD_PROGRAM = String.raw`
'use strict';
const load = require;
const OFF = new Set(process.argv.filter((a) => a.startsWith('${SANDBOX_OFF_FLAG}')).map((a) => a.slice(${SANDBOX_OFF_FLAG.length})));

// Node's modules that open a socket, resolve a name, speak HTTP, TLS or HTTP/2, or listen for a
// debugger; and the packages that would (ws is Emscripten's socket layer in Node). Refused to every
// path that loads a module: require (any copy, createRequire, Module._load), import() and
// process.getBuiltinModule. Registered before the runtime loads, so Pyodide's own imports are refused too.
const NETWORK_MODULES = ['net', 'tls', 'dns', 'dns/promises', 'http', 'https', 'http2', 'dgram', '_http_agent',
  '_http_client', '_http_common', '_http_incoming', '_http_outgoing', '_http_server', '_tls_common', '_tls_wrap',
  'inspector', 'inspector/promises', 'ws', 'undici'];
const DENIED_URL = 'thoughtline-denied:';
function denyNetwork() {
  const denied = new Set(NETWORK_MODULES);
  const bare = (id) => { const s = String(id); return s.startsWith('node:') ? s.slice(5) : s; };
  const isDenied = (id) => { const name = bare(id); return denied.has(name) || denied.has(name.split('/')[0]); };
  const refusal = (name) => 'code_run has no network: ' + name + ' is not available in the sandbox';
  const modules = load('node:module');
  modules.registerHooks({
    resolve(specifier, context, next) {
      return isDenied(specifier) ? { url: DENIED_URL + bare(specifier), format: 'commonjs', shortCircuit: true } : next(specifier, context);
    },
    load(url, context, next) {
      if (!url.startsWith(DENIED_URL)) return next(url, context);
      return { format: 'commonjs', source: 'throw new Error(' + JSON.stringify(refusal(url.slice(DENIED_URL.length))) + ')', shortCircuit: true };
    },
  });
  // A hook registered later runs first and could resolve around this one: none may be added.
  modules.registerHooks = modules.register = () => { throw new Error('code_run: module hooks are fixed in the sandbox'); };
  const builtin = process.getBuiltinModule;
  process.getBuiltinModule = (id) => { if (isDenied(id)) throw new Error(refusal(bare(id))); return builtin(id); };
  for (const name of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest', 'WebTransport']) {
    try { delete globalThis[name]; } catch {}
  }
}
if (!OFF.has('network-modules')) denyNetwork();

// pyodide: the runtime's API when it is Pyodide, the most an escape from Python could hold.
async function escaped(job, pyodide) { /*ESCAPE*/ }

const MARK = '\n[… cut: %d more characters]';

function sink(max) {
  let text = '';
  let dropped = 0;
  return {
    add(piece) {
      piece = String(piece);
      const room = max - text.length;
      if (room >= piece.length) text += piece;
      else { if (room > 0) text += piece.slice(0, room); dropped += piece.length - Math.max(room, 0); }
    },
    done() { return dropped > 0 ? text + MARK.replace('%d', String(dropped)) : text; },
  };
}

function show(value, max) {
  let text;
  if (typeof value === 'string') text = value;
  else { try { text = JSON.stringify(value); } catch { text = String(value); } if (text === undefined) text = String(value); }
  if (text.length > max) text = text.slice(0, max) + MARK.replace('%d', String(text.length - max));
  return text;
}

// What an escape from the runtime into this process's JavaScript could use: gone before the code runs.
function lockdown() {
  if (OFF.has('lockdown')) return;
  for (const name of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest', 'Request', 'Response', 'Headers',
    'FormData', 'require', 'module', 'exports', '__filename', '__dirname', 'Worker', 'SharedWorker']) {
    try { delete globalThis[name]; } catch {}
  }
  // An allow-list (process-kept.ts): whatever Node puts on process, only what this program needs stays.
  const kept = new Set(${JSON.stringify(PROCESS_KEPT)});
  for (const name of Object.getOwnPropertyNames(process)) {
    if (kept.has(name)) continue;
    if (!Reflect.deleteProperty(process, name)) throw new Error('code_run: process.' + name + ' cannot be removed; the sandbox does not run with it');
  }
}

/** Keeps the files the code may write: bounded count and bytes, relative paths without "..". */
function fileWriter(limits, reserved) {
  const written = new Map();
  let bytes = 0;
  return {
    check(path, size) {
      const parts = String(path).split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
      if (parts.length === 0) throw new Error('files.write: give a file path');
      if (parts.includes('..') || String(path).startsWith('/') || String(path).includes('\0'))
        throw new Error('files.write: ' + path + ': give a path inside the workspace without ".."');
      if (parts[0] === reserved) throw new Error('files.write: ' + path + ': ' + reserved + ' is reserved');
      const key = parts.join('/');
      const before = written.get(key);
      const after = bytes - (before ? before.length : 0) + size;
      if (!before && written.size >= limits.maxOutputFiles) throw new Error('files.write: at most ' + limits.maxOutputFiles + ' files per execution');
      if (after > limits.maxOutputBytes) throw new Error('files.write: at most ' + limits.maxOutputBytes + ' bytes written per execution');
      return key;
    },
    put(key, data) {
      const before = written.get(key);
      bytes += data.length - (before ? before.length : 0);
      written.set(key, data);
    },
    list() { return [...written].map(([path, data]) => ({ path, data })); },
  };
}

async function runJavaScript(job) {
  const core = load(job.modules.quickjsCore);
  const variant = load(job.modules.quickjsVariant).default;
  const quickjs = await core.newQuickJSWASMModuleFromVariant(variant);
  lockdown();
  const limits = job.limits;
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  let deadline = Infinity;
  let interrupted = false;
  runtime.setInterruptHandler(() => { if (Date.now() > deadline) { interrupted = true; return true; } return false; });
  const vm = runtime.newContext();
  const stdout = sink(limits.maxOutputChars);
  const stderr = sink(limits.maxOutputChars);
  const inputs = new Map(job.files.map((f) => [f.path, f.data]));
  const writer = fileWriter(limits, job.reserved);
  const text = (handle) => { const v = vm.dump(handle); return typeof v === 'string' ? v : show(v, limits.maxOutputChars); };

  const consoleObject = vm.newObject();
  for (const [name, out] of [['log', stdout], ['info', stdout], ['debug', stdout], ['warn', stderr], ['error', stderr]]) {
    const fn = vm.newFunction(name, (...args) => { out.add(args.map(text).join(' ') + '\n'); });
    vm.setProp(consoleObject, name, fn);
    fn.dispose();
  }
  vm.setProp(vm.global, 'console', consoleObject);
  consoleObject.dispose();
  const files = vm.newObject();
  const read = vm.newFunction('read', (pathHandle) => {
    const path = String(vm.dump(pathHandle)).split(/[\\/]+/).filter((p) => p !== '' && p !== '.').join('/');
    const own = writer.list().find((f) => f.path === path);
    const data = own ? own.data : inputs.get(path);
    if (!data) throw new Error('files.read: no such file: ' + path + ' (the code sees only the files its call lists)');
    return vm.newString(Buffer.from(data).toString('utf8'));
  });
  const write = vm.newFunction('write', (pathHandle, contentHandle) => {
    const content = vm.dump(contentHandle);
    if (typeof content !== 'string') throw new Error('files.write: the content must be a string');
    const data = Buffer.from(content, 'utf8');
    const key = writer.check(vm.dump(pathHandle), data.length);
    writer.put(key, data);
  });
  const list = vm.newFunction('list', () => {
    const names = [...new Set([...inputs.keys(), ...writer.list().map((f) => f.path)])].sort();
    const array = vm.newArray();
    names.forEach((name, i) => { const s = vm.newString(name); vm.setProp(array, i, s); s.dispose(); });
    return array;
  });
  for (const [name, fn] of [['read', read], ['write', write], ['list', list]]) { vm.setProp(files, name, fn); fn.dispose(); }
  vm.setProp(vm.global, 'files', files);
  files.dispose();

  // fetch: each request goes to the worker, which sends it through the HTTP tool's checks.
  const inflight = new Map();
  let fetches = 0;
  let wake = () => {};
  onFetched = (message) => {
    const deferred = inflight.get(message.id);
    if (!deferred) return;
    inflight.delete(message.id);
    if (typeof message.error === 'string') {
      const failure = vm.newError(message.error);
      deferred.reject(failure);
      failure.dispose();
    } else {
      const text = vm.newString(JSON.stringify(message.result));
      deferred.resolve(text);
      text.dispose();
    }
    deferred.dispose();
    wake();
  };
  if (job.fetch) {
    const hostFetch = vm.newFunction('__fetch', (urlHandle, initHandle) => {
      const deferred = vm.newPromise();
      if (++fetches > limits.maxFetches) {
        const failure = vm.newError('fetch: at most ' + limits.maxFetches + ' requests per execution');
        deferred.reject(failure);
        failure.dispose();
        const handle = deferred.handle;
        return handle;
      }
      const init = initHandle ? vm.dump(initHandle) : {};
      const id = fetches;
      inflight.set(id, deferred);
      process.send({ kind: 'fetch', id, request: { ...(init && typeof init === 'object' ? init : {}), url: String(vm.dump(urlHandle)) } });
      return deferred.handle;
    });
    vm.setProp(vm.global, '__fetch', hostFetch);
    hostFetch.dispose();
    const prelude = vm.evalCode('globalThis.fetch = async (url, init) => { const r = JSON.parse(await __fetch(String(url), init === undefined ? undefined : { method: init.method, headers: init.headers, body: init.body })); return { ...r, ok: r.status >= 200 && r.status < 300, text: async () => r.body, json: async () => JSON.parse(r.body) }; }');
    if (prelude.error) prelude.error.dispose(); else prelude.value.dispose();
  }

  const namesHandle = vm.unwrapResult(vm.evalCode('Object.getOwnPropertyNames(globalThis)'));
  const baseline = vm.dump(namesHandle);
  namesHandle.dispose();
  for (const [name, json] of Object.entries(job.globals || {})) {
    const restored = vm.evalCode('globalThis[' + JSON.stringify(name) + '] = JSON.parse(' + JSON.stringify(json) + ')');
    if (restored.error) restored.error.dispose(); else restored.value.dispose();
  }

  process.send({ kind: 'ready' });
  deadline = Date.now() + limits.cpuMs;
  await escaped(job);
  let value;
  let error;
  const result = vm.evalCode(job.code, 'code.js');
  if (result.error) {
    error = describeError(vm.dump(result.error));
    result.error.dispose();
  } else {
    runtime.executePendingJobs(-1);
    let state = vm.getPromiseState(result.value);
    // A program waiting on fetch: run its jobs as each answer lands, until it settles or nothing is in flight.
    while (state.type === 'pending' && inflight.size > 0 && !interrupted) {
      await new Promise((resolve) => { wake = resolve; });
      runtime.executePendingJobs(-1);
      state = vm.getPromiseState(result.value);
    }
    if (state.type === 'rejected') { error = describeError(vm.dump(state.error)); state.error.dispose(); }
    else if (state.type === 'pending') error = 'The code returned a promise that never settled (there are no timers; only fetch waits).';
    else { const v = vm.dump(state.value); if (v !== undefined) value = show(v, limits.maxOutputChars); if (state.value !== result.value) state.value.dispose(); }
    result.value.dispose();
  }
  if (interrupted) error = 'Stopped at the CPU limit of ' + limits.cpuMs + ' ms.';
  // A short allowance to read the variables, even after an interrupt.
  deadline = Date.now() + 500;
  let kept = {};
  let dropped = [];
  const collected = vm.evalCode('(() => { const base = new Set(' + JSON.stringify(baseline) + '); const kept = {}, dropped = [];' +
    ' for (const k of Object.getOwnPropertyNames(globalThis)) { if (base.has(k)) continue; const v = globalThis[k];' +
    ' let s; try { s = typeof v === "function" || typeof v === "symbol" ? undefined : JSON.stringify(v); } catch {}' +
    ' if (s === undefined) dropped.push(k); else kept[k] = s; } return JSON.stringify({ kept, dropped }); })()');
  if (collected.error) collected.error.dispose();
  else { ({ kept, dropped } = JSON.parse(vm.dump(collected.value))); collected.value.dispose(); }
  return { stdout: stdout.done(), stderr: stderr.done(), value, error, files: writer.list(), globals: kept, dropped };
}

function describeError(e) {
  if (e && typeof e === 'object') {
    const head = (e.name ? e.name + ': ' : '') + (e.message !== undefined ? e.message : JSON.stringify(e));
    return e.stack ? head + '\n' + String(e.stack) : head;
  }
  return 'Thrown: ' + show(e, 2000);
}

const PY_STATE = [
  // JSON first (readable in the state file); else pickle, restored inside the sandbox only.
  'def __thoughtline_state():',
  '    import base64, json, pickle, types',
  '    kept, dropped = {}, []',
  '    for k, v in list(globals().items()):',
  '        if k.startswith("_") or isinstance(v, (types.ModuleType, types.FunctionType, type)):',
  '            continue',
  '        try:',
  '            kept[k] = json.dumps(v)',
  '        except Exception:',
  '            try:',
  '                kept[k] = "pickle:" + base64.b64encode(pickle.dumps(v)).decode()',
  '            except Exception:',
  '                dropped.append(k)',
  '    return json.dumps({"kept": kept, "dropped": dropped})',
  'def __thoughtline_restore(saved):',
  '    import base64, json, pickle',
  '    for k, v in json.loads(saved).items():',
  '        try:',
  '            globals()[k] = pickle.loads(base64.b64decode(v[7:])) if v.startswith("pickle:") else json.loads(v)',
  '        except Exception:',
  '            pass',
].join('\n');

// Pyodide's entry points that reach Node: its socket layer (initializeNodeSockFS imports node:net
// itself and points SOCKFS at it; NODESOCKFS), host mounts (NODEFS, FS.mount), package and library
// loading (reads and fetches outside the runtime: packageManager, loadDynlib) and ways to add
// modules, on its public API, its internal API and the Emscripten module; and every module through
// which Python reaches them: js, pyodide_js and their submodules (pyodide_js._api leads to all of the
// above). The runtime keeps what it uses after loading: FS's file calls, the event loop's
// scheduleCallback, and SOCKFS, which Python's socket calls read to fail (without it they crash the
// process), never patched to Node once initializeNodeSockFS is gone. Gone before the code runs; a
// name that will not go stops the process (fail closed).
const PYODIDE_DOORS = {
  api: ['initializeNodeSockFS', '_nodeSock', 'loadBinaryFile', 'loadPackage', 'loadDynlib', 'packageManager', 'install'],
  public: ['mountNodeFS', 'mountNativeFS', 'useNodeSockFS', 'loadPackage', 'loadPackagesFromImports', 'registerJsModule', 'registerComlink'],
  module: ['NODEFS', 'FS_mount'],
  FS: ['mount'],
  filesystems: ['NODEFS', 'NODESOCKFS'],
};
const PY_CLOSE = [
  'def __thoughtline_close():',
  '    import gc, sys',
  '    from _pyodide._importhook import JsLoader, jsfinder',
  '    jsfinder.jsproxies.clear()',
  '    for name in [k for k in sys.modules if k.split(".")[0] in ("js", "pyodide_js")]:',
  '        del sys.modules[name]',
  // Each such module's loader holds its JsProxy, in a cycle with the module's spec that the
  // collector cannot free (a JsProxy is not traversed) and gc.get_objects() still finds: emptied.
  '    for holder in gc.get_objects():',
  '        if isinstance(holder, JsLoader):',
  '            holder.jsproxy = None',
  '__thoughtline_close()',
  'del __thoughtline_close',
].join('\n');
function removeAll(owner, names, where) {
  for (const name of names) {
    try { delete owner[name]; } catch {}
    if (owner[name] !== undefined) { try { owner[name] = undefined; } catch {} }
    if (owner[name] !== undefined) throw new Error('code_run: ' + where + '.' + name + ' cannot be removed; the sandbox does not run with it');
  }
}
function closePyodideDoors(py) {
  const module = py._module;
  removeAll(py._api, PYODIDE_DOORS.api, 'pyodide._api');
  removeAll(py, PYODIDE_DOORS.public, 'pyodide');
  removeAll(module, PYODIDE_DOORS.module, 'pyodide._module');
  removeAll(module.FS, PYODIDE_DOORS.FS, 'pyodide.FS');
  removeAll(module.FS.filesystems, PYODIDE_DOORS.filesystems, 'pyodide.FS.filesystems');
  for (const name of ['js', 'pyodide_js']) { try { py.unregisterJsModule(name); } catch {} }
  py.runPython(PY_CLOSE);
}

async function runPython(job) {
  const limits = job.limits;
  // Pyodide's NODEFS reads the fs constants through process.binding, which the permission model refuses.
  const fsConstants = load('fs').constants;
  const osConstants = load('os').constants;
  process.binding = (name) => { if (name === 'constants') return { fs: fsConstants, os: osConstants }; throw new Error('denied'); };
  const { loadPyodide } = load(job.modules.pyodide);
  const stdout = sink(limits.maxOutputChars);
  const stderr = sink(limits.maxOutputChars);
  const py = await loadPyodide({
    jsglobals: Object.create(null),
    env: { HOME: '/work' },
    stdout: (line) => stdout.add(line + '\n'),
    stderr: (line) => stderr.add(line + '\n'),
  });
  lockdown();
  py.setStdin({ error: true });
  if (!OFF.has('pyodide-api')) closePyodideDoors(py);
  const FS = py.FS;
  FS.mkdirTree('/work');
  const given = new Map();
  for (const file of job.files) {
    const full = '/work/' + file.path;
    FS.mkdirTree(full.slice(0, full.lastIndexOf('/')));
    FS.writeFile(full, file.data);
    given.set(file.path, Buffer.from(file.data));
  }
  FS.chdir('/work');
  py.runPython(PY_STATE);
  const restore = py.globals.get('__thoughtline_restore');
  restore(JSON.stringify(job.globals || {}));
  restore.destroy();

  process.send({ kind: 'ready' });
  await escaped(job, py);
  let value;
  let error;
  try {
    const result = py.runPython(job.code, { filename: '<code>' });
    if (result !== undefined) {
      value = show(result && typeof result === 'object' && typeof result.toString === 'function' ? result.toString() : result, limits.maxOutputChars);
      if (result && typeof result.destroy === 'function') result.destroy();
    }
  } catch (e) {
    error = String(e && e.message ? e.message : e);
  }
  const writer = fileWriter(limits, job.reserved);
  const refused = [];
  const walk = (dir) => {
    for (const name of FS.readdir(dir)) {
      if (name === '.' || name === '..') continue;
      const full = dir + '/' + name;
      const stat = FS.lstat(full);
      if (FS.isDir(stat.mode)) walk(full);
      else if (FS.isFile(stat.mode)) {
        const path = full.slice('/work/'.length);
        const data = FS.readFile(full);
        const before = given.get(path);
        if (before && Buffer.compare(before, Buffer.from(data)) === 0) continue;
        try { writer.put(writer.check(path, data.length), data); } catch (e) { refusals++; if (refused.length < 20) refused.push({ path, reason: String(e.message).replace(/^files\.write: /, '') }); }
      }
    }
  };
  let refusals = 0;
  walk('/work');
  // The first twenty refusals are named; a program that wrote thousands of files gets a count for the rest.
  if (refusals > refused.length) refused.push({ path: '…', reason: (refusals - refused.length) + ' more files not saved' });
  let kept = {};
  let dropped = [];
  try { ({ kept, dropped } = JSON.parse(py.runPython('__thoughtline_state()'))); } catch {}
  return { stdout: stdout.done(), stderr: stderr.done(), value, error, files: writer.list(), refused, globals: kept, dropped };
}

let onFetched = () => {};
let started = false;
process.on('message', async (job) => {
  if (started) return job && job.kind === 'fetched' ? onFetched(job) : undefined;
  started = true;
  try {
    const answer = job.language === 'python' ? await runPython(job) : await runJavaScript(job);
    process.send({ kind: 'done', ...answer }, () => process.exit(0));
  } catch (e) {
    process.send({ kind: 'failed', message: String(e && e.message ? e.message : e).slice(0, 2000) }, () => process.exit(0));
  }
});
`;

/**
 * The program one `code_run` execution runs in: plain JavaScript for `node -e`, so it runs the
 * same from src/ and dist/. Before anything loads it takes the network away from every module path
 * (module hooks that refuse Node's socket, DNS, HTTP, TLS, UDP, HTTP/2 and inspector modules to
 * `require` and `import()`, a `process.getBuiltinModule` that refuses them too, no network globals).
 * It then gets one job over IPC, loads the runtime (QuickJS or Pyodide, both WebAssembly), removes
 * Pyodide's doors to Node (its socket layer, host mounts, `js` and `pyodide_js`), takes away what a
 * sandbox escape could use (module loading; on `process`, all but the allow-list `PROCESS_KEPT`),
 * says `ready`, runs the code, answers with its output, changed files and kept variables, and
 * exits. The parent owns the deadline, the
 * memory watchdog and the network namespace: it kills this process. The process runs under Node's
 * permission model (no file writes, no child processes, no workers, no addons, reads only of the
 * runtime's package folders), without code generation from strings in its own realm, and with an
 * empty environment. Each layer is described in sandbox-layers.ts; the argv may switch one off
 * (`--off=<layer>`), which only tests do.
 */
export const CODE_CHILD_SOURCE = codeChildSource();
