// `npm start` runs this first: it builds only when a source changed since dist/ was built, so a
// restart takes seconds, not a full compile. The build writes over dist/ (nest-cli.json has
// deleteOutDir: false), so a server already running from it never loses its files.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outputs = ['dist/main.js', 'dist/cli.js'].map((file) => join(root, file));
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'].map((file) => join(root, file));

/** The latest change under these paths; a file added, removed or renamed changes its folder's time too. */
function newest(paths) {
  let latest = 0;
  for (const path of paths) {
    const stat = statSync(path);
    latest = Math.max(latest, stat.mtimeMs);
    if (stat.isDirectory()) latest = Math.max(latest, newest(readdirSync(path).map((entry) => join(path, entry))));
  }
  return latest;
}

const built = outputs.every((file) => existsSync(file))
  ? Math.min(...outputs.map((file) => statSync(file).mtimeMs))
  : 0;
if (built > newest(inputs)) {
  console.log('dist/ is newer than src/: not building again');
} else {
  const { status } = spawnSync(process.execPath, [join(root, 'node_modules/@nestjs/cli/bin/nest.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  process.exit(status ?? 1);
}
