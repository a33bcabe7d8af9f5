// Runs Jest (with the arguments given) the way `npm test` does, and tells a test that failed from a test file whose
// worker process died of a signal: a native crash of the process (seen, rarely, as SIGSEGV in a worker on a loaded
// machine), which says nothing of the tests in it. When every failure of the run is such a crash, those files are run
// once more, alone, and their result is the run's; a run whose Jest process itself died of a signal (running in band,
// it has no worker to lose) is run once more whole. Any other failure fails the run as it is.
//   node scripts/jest-run.mjs [jest arguments]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const JEST = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const NODE_FLAGS = ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning'];
/** How Jest reports a test file whose worker process was killed by a signal rather than failing a test. */
const WORKER_CRASH = /jest worker process \(pid=\d+\) was terminated by another process: signal=SIG[A-Z]+/;

/** Jest options that take the next argument as their value (every other argument not starting with - is a pattern). */
const VALUED = new Set([
  '-c',
  '--config',
  '-t',
  '--testNamePattern',
  '--testRegex',
  '-w',
  '--maxWorkers',
  '--testTimeout',
]);

/** The arguments without their test path patterns: the run once more names its files itself. */
function withoutPatterns(args) {
  return args.filter((arg, i) => arg.startsWith('-') || VALUED.has(args[i - 1]));
}

/** Jest's exit status, or the signal that killed Jest itself (a run in band has no worker to lose). */
function jest(args) {
  const run = spawnSync(process.execPath, [...NODE_FLAGS, JEST, ...args], { cwd: ROOT, stdio: 'inherit' });
  return run.signal ?? run.status ?? 1;
}

const args = process.argv.slice(2);
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-jest-')), 'report.json');
const status = jest([...args, '--json', `--outputFile=${report}`]);
if (status === 0) process.exit(0);
if (typeof status === 'string') {
  console.error(`\nJest itself was killed by ${status}; running it once more:`);
  process.exit(exitCodeOf(jest(args)));
}

let results;
try {
  results = JSON.parse(fs.readFileSync(report, 'utf8'));
} catch {
  process.exit(status);
}
const failed = results.testResults.filter((file) => file.status === 'failed');
const crashed = failed.filter((file) => WORKER_CRASH.test(file.message ?? ''));
if (failed.length === 0 || crashed.length < failed.length) process.exit(status);

const files = crashed.map((file) => path.relative(ROOT, file.name));
console.error(`\n${files.length} test file(s) lost their worker process to a signal; running them once more:`);
for (const file of files) console.error(`  ${file}`);
process.exit(exitCodeOf(jest([...withoutPatterns(args), '--runTestsByPath', ...files])));

function exitCodeOf(status) {
  return typeof status === 'string' ? 1 : status;
}
