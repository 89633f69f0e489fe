#!/usr/bin/env node
/**
 * Moves source files and folders and rewrites every path that points at them, so a tree can be
 * reorganised in one commit and the same moves repeated on a tree that has changed since.
 *
 *   node scripts/move-modules.mjs MAP.json [--dry-run]
 *
 * MAP.json is `{ "old/path": "new/path", … }` (files or folders, relative to the repository root;
 * keys starting with "//" are comments). Files are moved with `git mv` (plain rename when
 * untracked). Then, in every text file under src/, test/, bench/, scripts/, examples/, docs/,
 * viewer/, .ci/ and the root's configs (in test/fixtures only code: recorded histories stay
 * as they are), it rewrites:
 *  - every string literal of a .ts/.js file that is a relative path resolving to a moved file or
 *    folder, or any relative path in a moved file: import/export, import(), require(),
 *    require.resolve(), vi.mock(), vi.importActual(), new URL(…, import.meta.url), path.join(…);
 *    an import that resolved through a folder's index.ts keeps the folder form;
 *  - every root-relative mention, `src/…` or `dist/…` (with .ts, .js, .d.ts or no extension), in
 *    any text file, code comments and docs included; and `shared/x.ts`-style mentions without the
 *    `src/` when `src/` + the mention is a moved file.
 *
 * Safe to run again: paths are resolved against the tree as it was before the moves, so a tree
 * where some files moved already and new files still use old paths is rewritten the same way; a
 * tree already fully moved is left untouched. It prints what it could not decide (paths built from
 * pieces, mentions of a folder that was split) for a person to check.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ts = require('typescript');

const ROOT = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const SCANNED_DIRS = ['src', 'test', 'bench', 'scripts', 'examples', 'docs', 'viewer', '.ci', 'docker', 'eval'];
const SKIPPED_DIRS = ['node_modules', 'dist', '.thoughtline'];
const TEXT_EXTENSIONS = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|md|yml|yaml|sh|html|css)$|^[^.]+$/;
const CODE_EXTENSIONS = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const MODULE_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'];

const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const mapFile = args.find((a) => !a.startsWith('--'));
if (!mapFile) {
  console.error('usage: node scripts/move-modules.mjs MAP.json [--dry-run]');
  process.exit(2);
}

const toPosix = (p) => p.split(path.sep).join('/');
const abs = (rel) => path.join(ROOT, rel);
const rel = (p) => toPosix(path.relative(ROOT, p));
const isFile = (p) => fs.existsSync(p) && fs.statSync(p).isFile();
const isDir = (p) => fs.existsSync(p) && fs.statSync(p).isDirectory();

function walk(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

// --- 1. The moves, file by file, old → new (absolute paths). -------------------------------------
const entries = Object.entries(JSON.parse(fs.readFileSync(mapFile, 'utf8'))).filter(([k]) => !k.startsWith('//'));
const fileMap = new Map();
const folderMap = new Map();
const pending = [];
for (const [from, to] of entries) {
  const [oldPath, newPath] = [abs(from.replace(/\/$/, '')), abs(to.replace(/\/$/, ''))];
  if (isDir(oldPath) || (!fs.existsSync(oldPath) && isDir(newPath))) {
    folderMap.set(oldPath, newPath);
    const existing = isDir(oldPath) ? oldPath : newPath;
    for (const file of walk(existing)) {
      const inside = path.relative(existing, file);
      fileMap.set(path.join(oldPath, inside), path.join(newPath, inside));
      if (existing === oldPath) pending.push([file, path.join(newPath, inside)]);
    }
    // Files that another run already moved into the new folder, while the old one still exists.
    if (isDir(oldPath) && isDir(newPath))
      for (const file of walk(newPath)) fileMap.set(path.join(oldPath, path.relative(newPath, file)), file);
  } else if (isFile(oldPath)) {
    fileMap.set(oldPath, newPath);
    pending.push([oldPath, newPath]);
  } else if (isFile(newPath)) fileMap.set(oldPath, newPath);
  else console.warn(`! neither ${from} nor ${to} exists; skipped`);
}
for (const [from, to] of pending) if (fs.existsSync(to)) throw new Error(`${rel(from)} would overwrite ${rel(to)}`);

const oldFiles = new Set(fileMap.keys());
const oldDirs = new Set();
for (const file of oldFiles)
  for (let d = path.dirname(file); d.startsWith(ROOT) && d !== ROOT; d = path.dirname(d)) oldDirs.add(d);
/** Exists in the tree as it was before the moves. */
const newFiles = new Set(fileMap.values());
const wasFile = (p) => oldFiles.has(p) || (isFile(p) && !newFiles.has(p));
const wasDir = (p) => oldDirs.has(p) || isDir(p);
const newFileOf = (p) => fileMap.get(p) ?? p;
function newDirOf(dir) {
  for (const [from, to] of folderMap) {
    if (dir === from) return to;
    if (dir.startsWith(from + path.sep)) return path.join(to, path.relative(from, dir));
  }
  return dir;
}
/** A folder whose files left for more than one place: a mention of it needs a person. */
function isSplit(dir) {
  if (folderMap.has(dir) || newDirOf(dir) !== dir) return false;
  return [...oldFiles].some((f) => f.startsWith(dir + path.sep) && !fileMap.get(f).startsWith(dir + path.sep));
}

/** What a path (absolute, no extension guessing yet) pointed at: a file, a folder's index, or a folder. */
function resolveOld(base) {
  if (wasFile(base)) return { target: base, form: 'exact' };
  const jsLike = base.match(/\.(js|mjs|cjs)$/);
  if (jsLike) {
    const tsFile = base.slice(0, -jsLike[0].length) + { js: '.ts', mjs: '.mts', cjs: '.cts' }[jsLike[1]];
    if (wasFile(tsFile)) return { target: tsFile, form: 'js' };
  }
  for (const ext of MODULE_EXTENSIONS) if (wasFile(base + ext)) return { target: base + ext, form: 'bare' };
  for (const ext of ['.ts', '.tsx', '.js'])
    if (wasFile(path.join(base, `index${ext}`)))
      return { target: path.join(base, `index${ext}`), form: 'index', dir: base };
  if (wasDir(base)) return { target: base, form: 'dir' };
  return undefined;
}

/** The new spelling of a relative path string, or undefined when it stays as it is. */
function rewriteRelative(spec, importer, warnings) {
  const resolved = resolveOld(path.resolve(path.dirname(importer), spec));
  const newImporter = newFileOf(importer);
  if (!resolved) {
    if (newImporter !== importer && /\.\.?\//.test(spec)) warnings.push(`unresolved relative path '${spec}'`);
    return undefined;
  }
  const { target, form } = resolved;
  let newTarget;
  if (form === 'dir') {
    if (isSplit(target)) {
      warnings.push(`'${spec}' names ${rel(target)}, whose files moved to several places`);
      return undefined;
    }
    newTarget = newDirOf(target);
  } else newTarget = newFileOf(target);
  if (newTarget === target && newImporter === importer) return undefined;
  let out = toPosix(path.relative(path.dirname(newImporter), newTarget));
  if (form === 'index' && path.basename(newTarget).startsWith('index.')) out = toPosix(path.dirname(out));
  else if (form === 'bare')
    out = out.replace(/(\.d)?\.(tsx?|mts|cts|js|mjs|cjs|json)$/, (m) => (m === '.json' ? m : ''));
  else if (form === 'js') out = out.replace(/\.(ts|mts|cts)$/, (_, e) => ({ ts: '.js', mts: '.mjs', cts: '.cjs' })[e]);
  if (spec.endsWith('/') && !out.endsWith('/')) out += '/';
  if (out === '') out = '.';
  if (!out.startsWith('.')) out = `./${out}`;
  return out === spec ? undefined : out;
}

/** The new spelling of a root-relative mention (`src/…`, `dist/…`), or undefined. */
function rewriteRooted(mention, warnings) {
  const dist = mention.startsWith('dist/');
  const body = dist ? `src/${mention.slice(5)}` : mention;
  const trailing = body.endsWith('/') ? '/' : '';
  const base = abs(body.replace(/\/$/, ''));
  const candidates = dist
    ? [
        [/\.d\.ts$/, '.ts', '.d.ts'],
        [/\.js\.map$/, '.ts', '.js.map'],
        [/\.js$/, '.ts', '.js'],
      ]
    : [];
  for (const [pattern, srcExt, distExt] of candidates) {
    if (!pattern.test(base)) continue;
    const file = base.replace(pattern, srcExt);
    if (!oldFiles.has(file)) return undefined;
    return `dist/${rel(fileMap.get(file)).slice(4).replace(/\.ts$/, distExt)}`;
  }
  if (oldFiles.has(base)) return rel(fileMap.get(base)).replace(/^src\//, dist ? 'dist/' : 'src/');
  for (const ext of ['.ts', '.tsx'])
    if (oldFiles.has(base + ext))
      return rel(fileMap.get(base + ext))
        .slice(0, -ext.length)
        .replace(/^src\//, dist ? 'dist/' : 'src/');
  if (wasDir(base)) {
    if (isSplit(base)) {
      warnings.push(`'${mention}' names a folder whose files moved to several places`);
      return undefined;
    }
    const moved = newDirOf(base);
    if (moved === base) return undefined;
    return rel(moved).replace(/^src\//, dist ? 'dist/' : 'src/') + trailing;
  }
  return undefined;
}

// --- 2. The files to read: every text file of the scanned folders and the root's configs. --------
function listed(flag) {
  return execFileSync('git', ['ls-files', '-z', ...flag], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
}
const tracked = new Set(listed([]));
const candidates = [...tracked, ...listed(['--others', '--exclude-standard'])].filter((f) => {
  // Recorded histories and other fixture data stay as they are; code among the fixtures is read.
  if (f.startsWith('test/fixtures/') && !CODE_EXTENSIONS.test(f)) return false;
  if (SKIPPED_DIRS.some((d) => f === d || f.startsWith(`${d}/`) || f.includes(`/${d}/`))) return false;
  if (f === 'package-lock.json') return false;
  const top = f.includes('/') ? f.split('/')[0] : '';
  if (top !== '' && !SCANNED_DIRS.includes(top)) return false;
  return TEXT_EXTENSIONS.test(path.basename(f)) && isFile(abs(f));
});

const ROOTED = /(?<=^|[^\w./@-]|\.\.\/)(?:src|dist)\/[\w./@-]*[\w/]/g;
const SRCLESS = /(?<=^|[^\w./@-])[\w-]+(?:\/[\w.-]+)+\.(?:ts|js)\b/g;

function editsOf(file, text, warnings) {
  const edits = [];
  if (CODE_EXTENSIONS.test(file)) {
    const kind = /\.(tsx|jsx)$/.test(file)
      ? ts.ScriptKind.TSX
      : file.endsWith('.js') || file.endsWith('.mjs') || file.endsWith('.cjs')
        ? ts.ScriptKind.JS
        : ts.ScriptKind.TS;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
    // Only a string with a slash is read as a path: `'.'` and `'..'` alone are as often a separator.
    const visit = (node) => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && /^\.\.?\/./.test(node.text)) {
        const replacement = rewriteRelative(node.text, file, warnings);
        if (replacement !== undefined)
          edits.push({ start: node.getStart(source) + 1, end: node.getEnd() - 1, text: replacement });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const overlaps = (start, end) => edits.some((e) => start < e.end && end > e.start);
  for (const m of text.matchAll(ROOTED)) {
    const mention = m[0].replace(/\.+$/, '');
    if (overlaps(m.index, m.index + mention.length)) continue;
    const replacement = rewriteRooted(mention, warnings);
    if (replacement !== undefined) edits.push({ start: m.index, end: m.index + mention.length, text: replacement });
  }
  for (const m of text.matchAll(SRCLESS)) {
    if (m[0].startsWith('src/') || m[0].startsWith('dist/')) continue;
    const moved = fileMap.get(abs(`src/${m[0]}`));
    if (moved && !overlaps(m.index, m.index + m[0].length))
      edits.push({ start: m.index, end: m.index + m[0].length, text: rel(moved).slice(4) });
  }
  return edits.sort((a, b) => b.start - a.start);
}

// --- 3. Compute every rewrite against the old tree, then move, then write. ------------------------
const writes = new Map();
let warningCount = 0;
for (const f of candidates) {
  const file = abs(f);
  const text = fs.readFileSync(file, 'utf8');
  const warnings = [];
  const edits = editsOf(file, text, warnings);
  if (newFileOf(file) !== file && /__dirname|__filename|import\.meta\.url/.test(text))
    warnings.push('builds paths from its own location: check any pieces not written as one string');
  for (const w of [...new Set(warnings)]) console.warn(`! ${f}: ${w}`);
  warningCount += new Set(warnings).size;
  if (edits.length === 0) continue;
  let next = text;
  for (const e of edits) next = next.slice(0, e.start) + e.text + next.slice(e.end);
  if (next !== text) writes.set(newFileOf(file), next);
}

if (dryRun) {
  for (const [from, to] of pending) console.log(`move ${rel(from)} -> ${rel(to)}`);
  for (const file of writes.keys()) console.log(`rewrite ${rel(file)}`);
} else {
  for (const [from, to] of pending) {
    fs.mkdirSync(path.dirname(to), { recursive: true });
    if (tracked.has(rel(from))) execFileSync('git', ['mv', rel(from), rel(to)], { cwd: ROOT });
    else fs.renameSync(from, to);
  }
  for (const [from] of pending)
    for (let d = path.dirname(from); d !== ROOT && isDir(d) && fs.readdirSync(d).length === 0; d = path.dirname(d))
      fs.rmdirSync(d);
  for (const [file, text] of writes) fs.writeFileSync(file, text);
  // A longer path can push an import past the line limit: format what was rewritten, as the house does.
  const prettier = path.join(ROOT, 'node_modules/.bin/prettier');
  const formatted = [...writes.keys()].filter((f) => /\.(ts|mts|cts|js|mjs|cjs|json|md)$/.test(f));
  if (fs.existsSync(prettier))
    for (let i = 0; i < formatted.length; i += 200)
      execFileSync(prettier, ['--write', '--log-level', 'warn', ...formatted.slice(i, i + 200)], {
        cwd: ROOT,
        stdio: 'inherit',
      });
}

// Folders the map emptied file by file that still hold files: files the map has never seen.
const emptied = new Set(pending.map(([from]) => path.dirname(from)).filter((dir) => isSplit(dir)));
for (const dir of emptied) {
  if (!isDir(dir) || dryRun) continue;
  const left = fs.readdirSync(dir).filter((f) => isFile(path.join(dir, f)));
  if (left.length > 0) console.warn(`! ${rel(dir)} still holds files the map does not move: ${left.join(', ')}`);
}
console.log(
  `${dryRun ? 'would move' : 'moved'} ${pending.length} files, ${dryRun ? 'would rewrite' : 'rewrote'} ${writes.size} files, ${warningCount} warnings`,
);
