'use strict';
/**
 * Memory of a service as the machine sees it, from /proc (Linux): the resident set of the process and of every process
 * it started, summed, so a database run in a child process counts as the service's own. Threads share their process's
 * memory and need nothing more. Elsewhere every figure is NaN.
 */
const fs = require('node:fs');

/** The pid and every descendant's pid (children of each thread, recursively). */
function processTree(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    let tasks = [];
    try {
      tasks = fs.readdirSync(`/proc/${pids[i]}/task`);
    } catch {
      continue; // gone
    }
    for (const task of tasks) {
      try {
        const children = fs.readFileSync(`/proc/${pids[i]}/task/${task}/children`, 'utf8').trim();
        if (children) pids.push(...children.split(/\s+/).map(Number));
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return pids;
}

/** A field of /proc/<pid>/status in MB (VmRSS: resident now; VmHWM: the most it was ever resident). */
function statusMb(pid, field) {
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line ? Number(line.replace(/\D+/g, '')) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const sumOver = (pid, field) => {
  const values = processTree(pid).map((p) => statusMb(p, field));
  return values.some((v) => !Number.isNaN(v)) ? values.reduce((sum, v) => sum + (Number.isNaN(v) ? 0 : v), 0) : NaN;
};

/** Resident MB now, the process and its descendants. */
const rssMbOf = (pid) => sumOver(pid, 'VmRSS');
/** The peak resident MB of each process of the tree, summed (an upper bound of the tree's peak). */
const peakRssMbOf = (pid) => sumOver(pid, 'VmHWM');

/** Samples `rssMbOf(pid)` every 200 ms until `stop()`, which answers the peak seen (MB, rounded). */
function trackRss(pid) {
  let peak = 0;
  const read = () => {
    const mb = rssMbOf(pid);
    if (!Number.isNaN(mb)) peak = Math.max(peak, mb);
  };
  read();
  const timer = setInterval(read, 200);
  return { stop: () => (clearInterval(timer), read(), Math.round(peak)) };
}

module.exports = { processTree, rssMbOf, peakRssMbOf, trackRss };
