import type { QuickReply } from '@parley/protocol';

/** Materials whose name or content contains `query` (case-insensitive), of one kind or all. */
export function filterQuickReplies(
  list: readonly QuickReply[],
  query: string,
  kind?: QuickReply['kind'],
): QuickReply[] {
  const q = query.trim().toLocaleLowerCase();
  return list.filter(
    (item) =>
      (!kind || item.kind === kind) &&
      (!q ||
        item.name.toLocaleLowerCase().includes(q) ||
        item.content.toLocaleLowerCase().includes(q)),
  );
}

/** Text replies before image and audio materials, each in the order given (a stable sort). */
export function textFirst(list: readonly QuickReply[]): QuickReply[] {
  return [...list].sort((a, b) => Number(a.kind !== 'text') - Number(b.kind !== 'text'));
}

/**
 * The `/word` being typed just before the caret: a slash at the start of the text or after a
 * space, followed by no space. Null when the caret is not in one.
 */
export function slashToken(
  text: string,
  caret: number,
): { start: number; end: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)\/([^\s/]{0,40})$/.exec(before);
  if (!match) return null;
  const start = before.length - match[2]!.length - 1;
  return { start, end: caret, query: match[2]! };
}

export type MaterialProblem = 'nameRequired' | 'contentRequired' | 'mediaRequired';

/** The spec's rules: name and content cannot be empty; an image or audio must be uploaded. */
export function materialProblems(input: {
  kind: QuickReply['kind'];
  name: string;
  content: string;
  mediaId: string | null;
}): Partial<Record<'name' | 'content' | 'media', MaterialProblem>> {
  const problems: Partial<Record<'name' | 'content' | 'media', MaterialProblem>> = {};
  if (!input.name.trim()) problems.name = 'nameRequired';
  if (!input.content.trim()) problems.content = 'contentRequired';
  if (input.kind !== 'text' && !input.mediaId) problems.media = 'mediaRequired';
  return problems;
}
