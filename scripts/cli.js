#!/usr/bin/env node
// Runs the compiled CLI, building first when the sources are newer than the build (a fresh clone has no dist/).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const entry = path.join(root, 'dist', 'src', 'cli', 'main.js');

function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

// A runtime image ships dist/ without src/: nothing to compare, run what is built.
const sources = path.join(root, 'src');
if (!fs.existsSync(entry) || (fs.existsSync(sources) && fs.statSync(entry).mtimeMs < newestSource(sources))) {
  process.stderr.write('Building Promptgate…\n');
  execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
require(entry);
