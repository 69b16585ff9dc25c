// Fails (exit 1) when the folders of src/ import each other in a cycle, naming it. A node is a folder of
// src/ (with its subfolders) or a file at src/'s root; an edge is any import, type-only ones included.
// eslint.config.mjs lists what each folder may import; this check holds for what the code actually does.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', process.argv[2] ?? 'src');

/** The folder of src/ a path is in, or the path itself for a file at src/'s root. */
const nodeOf = (path) => relative(root, path).split(sep)[0];

function* sourceFiles(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

/** node → node → one import that makes the edge, for the message. */
const edges = new Map();
for (const file of sourceFiles(root)) {
  const from = nodeOf(file);
  for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8')).importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const imported = resolve(dirname(file), fileName);
    if (!imported.startsWith(root + sep)) continue;
    const to = nodeOf(imported.endsWith('.ts') ? imported : `${imported}.ts`);
    if (to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${relative(root, file)} imports ${fileName}`);
  }
}

// Depth-first search; a node met again while still on the path closes a cycle.
const state = new Map();
const path = [];
function visit(node) {
  state.set(node, 'open');
  path.push(node);
  for (const next of edges.get(node)?.keys() ?? []) {
    if (state.get(next) === 'open') {
      const cycle = [...path.slice(path.indexOf(next)), next];
      const why = cycle.slice(1).map((to, i) => `  ${edges.get(cycle[i]).get(to)}`);
      console.error(`Folder cycle in src/: ${cycle.join(' → ')}\n${why.join('\n')}`);
      process.exit(1);
    }
    if (!state.has(next)) visit(next);
  }
  path.pop();
  state.set(node, 'done');
}
for (const node of edges.keys()) if (!state.has(node)) visit(node);
