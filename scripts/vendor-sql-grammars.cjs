#!/usr/bin/env node
/**
 * Copies the two grammars the `sqlVerb` approval rule parses with (node-sql-parser's
 * build/postgresql.js and build/mysql.js, about 0.6 MB) and the package's LICENSE (Apache-2.0)
 * into vendor/node-sql-parser/, which the package ships. node-sql-parser itself is a
 * devDependency: installed whole it weighs 89 MB (every dialect, each with its source map), and
 * a user's install would carry all of it for two files. The grammars need `big-integer`, a
 * dependency of ours. Run by `npm run build` and scripts/build-if-stale.cjs before the workflow
 * bundle is read (the rule is bundled into it); a file is rewritten only when its bytes differ.
 * An argument names another folder to write vendor/ under, beside a compile of src/ elsewhere
 * (`npm run bench` compiles into .thoughtline/bench-dist). Plain CommonJS with no dependency: it
 * runs before anything is compiled.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const source = path.dirname(require.resolve('node-sql-parser/package.json', { paths: [root] }));
const target = path.join(path.resolve(root, process.argv[2] ?? '.'), 'vendor', 'node-sql-parser');
const { version, license } = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8'));

const files = {
  'postgresql.js': fs.readFileSync(path.join(source, 'build', 'postgresql.js')),
  'mysql.js': fs.readFileSync(path.join(source, 'build', 'mysql.js')),
  LICENSE: fs.readFileSync(path.join(source, 'LICENSE')),
  'README.md': Buffer.from(
    `# node-sql-parser ${version} (two grammars)\n\n` +
      `build/postgresql.js and build/mysql.js of [node-sql-parser](https://github.com/taozhi8833998/node-sql-parser) ` +
      `${version}, unchanged, under its ${license} license (LICENSE). Copied by scripts/vendor-sql-grammars.cjs; ` +
      `the \`sqlVerb\` approval rule parses with them.\n`,
  ),
};

fs.mkdirSync(target, { recursive: true });
for (const [name, bytes] of Object.entries(files)) {
  const file = path.join(target, name);
  if (fs.existsSync(file) && fs.readFileSync(file).equals(bytes)) continue;
  fs.writeFileSync(file, bytes);
}
