/**
 * Milliseconds of CPU this process has used, user and system: what the cost guards of detectors time (a bound on a
 * long adversarial input, or a ratio of two input sizes). Unlike wall time, a loaded machine does not stretch it: the
 * same bounds failed at load 25–27 when they timed `performance.now()`. (Speed itself is measured in `npm run bench`.)
 */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
