'use strict';
// Summarises a V8 .cpuprofile: the functions with the most self time, and the packages/files they come from.
// Usage: node bench/profile-summary.js <file.cpuprofile> [top]
const fs = require('node:fs');

const profile = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const top = Number(process.argv[3] ?? 30);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const functions = new Map();
const files = new Map();
for (const [id, micros] of self) {
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  const where = url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, 'nm:')
    .replace(/.*\/dist\//, 'dist/');
  const key = `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}`;
  functions.set(key, (functions.get(key) ?? 0) + micros);
  const pkg = where.startsWith('nm:')
    ? where
        .slice(3)
        .split('/')
        .slice(0, where.includes('nm:@') ? 2 : 1)
        .join('/')
    : where.split('/').slice(0, 3).join('/') || '(native)';
  files.set(pkg, (files.get(pkg) ?? 0) + micros);
}
const show = (title, map, n) => {
  process.stdout.write(`\n${title}\n`);
  for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    process.stdout.write(`${((micros / total) * 100).toFixed(1).padStart(5)} %  ${key}\n`);
  }
};
show('self time by package / folder', files, 20);
show('self time by function', functions, top);
