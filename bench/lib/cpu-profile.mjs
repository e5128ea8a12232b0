// Reads a V8 CPU profile (`node --cpu-prof`, a .cpuprofile file) into the functions that took
// the most time themselves (self time), for a benchmark's report.

/** The `limit` functions with the most self time: { ms, share, fn, at }. */
export function profileTop(profile, limit = 15) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
    total += dt;
  });
  const byFn = new Map();
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const file = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '');
    const key = `${functionName || '(anonymous)'}\t${file}:${lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us);
  }
  return [...byFn.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, us]) => {
      const [fn, at] = key.split('\t');
      return { ms: Math.round(us / 1000), share: Math.round((1000 * us) / total) / 10, fn, at };
    });
}
