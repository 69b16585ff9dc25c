// Preloaded into a server process (NODE_OPTIONS=--require) by loaded-packages.e2e-spec.ts: as it exits, prints
// one line naming every package it loaded.
process.on('exit', () => {
  const packages = new Set();
  for (const file of Object.keys(require.cache)) {
    const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
    if (match) packages.add(match[1]);
  }
  process.stdout.write(`LOADED PACKAGES ${JSON.stringify([...packages].sort())}\n`);
});
