/** Reads Prometheus' text exposition format: the value of a sample by name and labels. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels` (0 when none). */
export function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  return parseSamples(text)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** The metric families the text declares (its `# TYPE` lines). */
export function families(text: string): string[] {
  return [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);
}
