// @ts-check
/** Mantine's class names (CSS modules compiled to `m_` + 8 hex digits). */
const MANTINE_CLASS = /\bm_[0-9a-f]{8}\b/g;

/**
 * @param {string} text
 * @returns {Set<string>}
 */
const classesIn = (text) => new Set(text.match(MANTINE_CLASS) ?? []);

/**
 * The Mantine classes each screen's code can render whose styles that screen has not loaded.
 * `chunks`: the build's JS chunks, each with its code, its static imports and the CSS files it
 * brings; `css`: each CSS file's text. A screen is the start chunk or a lazily loaded one, with
 * everything it imports statically; the start chunk's CSS is always there.
 * @param {{ fileName: string; code: string; imports: string[]; css: string[]; isEntry: boolean; isDynamicEntry: boolean }[]} chunks
 * @param {Record<string, string>} css
 * @returns {{ chunk: string; missing: string[] }[]}
 */
export function findUnstyled(chunks, css) {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  /** @param {string} name */
  const closure = (name) => {
    const seen = new Set();
    const visit = (/** @type {string} */ n) => {
      if (seen.has(n) || !byName.has(n)) return;
      seen.add(n);
      byName.get(n)?.imports.forEach(visit);
    };
    visit(name);
    return [...seen].map((n) => /** @type {typeof chunks[number]} */ (byName.get(n)));
  };
  /** @param {typeof chunks} list */
  const styled = (list) => {
    const out = new Set();
    for (const c of list)
      for (const file of c.css) classesIn(css[file] ?? '').forEach((k) => out.add(k));
    return out;
  };
  const start = chunks.filter((c) => c.isEntry).flatMap((c) => closure(c.fileName));
  const always = styled(start);
  const problems = [];
  for (const screen of chunks.filter((c) => c.isEntry || c.isDynamicEntry)) {
    const code = closure(screen.fileName);
    const have = styled(code);
    const missing = new Set();
    for (const c of code) {
      for (const k of classesIn(c.code)) if (!have.has(k) && !always.has(k)) missing.add(k);
    }
    if (missing.size) problems.push({ chunk: screen.fileName, missing: [...missing].sort() });
  }
  return problems;
}

/**
 * Vite build step: fails the build when a screen can show a Mantine component whose styles
 * are not imported with it (app/mantine-styles.ts and the files that import the rest).
 * @returns {import('vite').Plugin}
 */
export function checkMantineCss() {
  return {
    name: 'parley:check-mantine-css',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = [];
      /** @type {Record<string, string>} */
      const css = {};
      for (const item of Object.values(bundle)) {
        if (item.type === 'asset' && item.fileName.endsWith('.css'))
          css[item.fileName] = String(item.source);
        if (item.type !== 'chunk') continue;
        chunks.push({
          fileName: item.fileName,
          code: item.code,
          imports: item.imports,
          css: [...(item.viteMetadata?.importedCss ?? [])],
          isEntry: item.isEntry,
          isDynamicEntry: item.isDynamicEntry,
        });
      }
      const problems = findUnstyled(chunks, css);
      if (problems.length) {
        this.error(
          'Mantine components without their styles (import @mantine/core/styles/<Component>.layer.css ' +
            'where they are used; see apps/web/src/app/mantine-styles.ts):\n' +
            problems.map((p) => `  ${p.chunk}: ${p.missing.join(' ')}`).join('\n'),
        );
      }
    },
  };
}
