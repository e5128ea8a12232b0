import type { WhatsappTemplate, WhatsappTemplateSend } from '@parley/protocol';

/** What the operator typed for a template's placeholders, part by part ({{1}} first). */
export interface TemplateValues {
  header: string[];
  body: string[];
  /** A URL button's {{1}} suffix, by the button's position. */
  buttons: Record<number, string>;
}

/** A template's key in a picker (a name may exist in several languages). */
export const templateKey = (t: Pick<WhatsappTemplate, 'name' | 'language'>) =>
  `${t.name}:${t.language}`;

export function emptyValues(t: WhatsappTemplate): TemplateValues {
  return {
    header: Array.from({ length: t.header?.variables ?? 0 }, () => ''),
    body: Array.from({ length: t.variables }, () => ''),
    buttons: Object.fromEntries(
      t.buttons.flatMap((b, i) => (b.variables > 0 ? [[i, '']] : [])),
    ) as Record<number, string>,
  };
}

/** Every placeholder has a value (WhatsApp refuses an empty one). */
export function isComplete(v: TemplateValues): boolean {
  return [...v.header, ...v.body, ...Object.values(v.buttons)].every((x) => x.trim() !== '');
}

/** {{n}} replaced by the n-th value; an empty one stays visible as its placeholder. */
export function fill(text: string, values: readonly string[]): string {
  return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (m, n: string) => values[Number(n) - 1]?.trim() || m);
}

/** The send the server takes. */
export function toTemplateSend(t: WhatsappTemplate, v: TemplateValues): WhatsappTemplateSend {
  return {
    name: t.name,
    language: t.language,
    header: v.header.map((x) => x.trim()),
    body: v.body.map((x) => x.trim()),
    buttons: Object.entries(v.buttons).map(([i, text]) => ({
      index: Number(i),
      text: text.trim(),
    })),
  };
}
