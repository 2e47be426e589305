// A process's resident memory and its high-water mark, from Linux's /proc (the npm benchmark's
// peak memory): VmRSS now, VmHWM since the last reset; writing 5 to /proc/PID/clear_refs resets
// the mark to the current resident set (Linux 4.0+; another process's needs ptrace rights: root
// here, or the same user without Yama restrictions).
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';

/** { rss, hwm } in bytes, or null when the process is gone. */
export function memOf(pid = 'self') {
  let s;
  try { s = readFileSync(`/proc/${pid}/status`, 'utf8'); } catch { return null; }
  const kb = (k) => Number(s.match(new RegExp(`^${k}:\\s+(\\d+)`, 'm'))?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

export function resetPeak(pid = 'self') {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** The pids under `pid` (children, theirs, ...) whose command line contains `needle`. */
export function descendants(pid, needle = '') {
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try { parent.set(Number(d), Number(readFileSync(`/proc/${d}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1])); } catch { /* gone */ }
  }
  const under = (p) => { for (let q = parent.get(p); q; q = parent.get(q)) if (q === pid) return true; return false; };
  return [...parent.keys()].filter((p) => under(p)).filter((p) => {
    try { return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(needle); } catch { return false; }
  });
}
