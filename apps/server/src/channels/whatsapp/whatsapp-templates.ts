import {
  MESSAGE_TEXT_MAX,
  type WhatsappTemplate,
  type WhatsappTemplateSend,
} from '@parley/protocol';

/**
 * Message templates as the Graph API v21.0 describes them (GET /{waba-id}/message_templates)
 * and sends them (POST /{phone-number-id}/messages, `type: "template"`): a TEXT header and a
 * body with {{1}}, {{2}}... placeholders, a footer, and buttons, of which a URL button may end
 * in a {{1}} suffix.
 */
export interface GraphTemplate {
  name?: string;
  language?: string;
  status?: string;
  category?: string;
  components?: Array<{
    type?: string;
    format?: string;
    text?: string;
    buttons?: Array<{ type?: string; text?: string; url?: string }>;
  }>;
}

/** The Cloud API's `components` of a template message: each part's placeholder values. */
export type TemplateComponents = Array<
  | { type: 'header' | 'body'; parameters: Array<{ type: 'text'; text: string }> }
  | {
      type: 'button';
      sub_type: 'url';
      index: string;
      parameters: Array<{ type: 'text'; text: string }>;
    }
>;

/** The distinct {{n}} placeholders of a template part. */
export function variablesOf(text: string): number {
  return new Set(text.match(/\{\{\s*\d+\s*\}\}/g)?.map((m) => m.replace(/\s/g, '')) ?? []).size;
}

/** An approved template as the console sees it (null: not approved, or unnamed). */
export function templateOf(t: GraphTemplate): WhatsappTemplate | null {
  if (t.status !== 'APPROVED' || !t.name || !t.language) return null;
  const part = (type: string) => t.components?.find((c) => c.type === type);
  const header = part('HEADER');
  // A media header (IMAGE, VIDEO, DOCUMENT, LOCATION) needs a media parameter Parley does not
  // take: such a template would only be refused (132012), so it is not offered at all.
  if (header && (header.format ?? 'TEXT') !== 'TEXT') return null;
  const body = part('BODY')?.text ?? '';
  return {
    name: t.name,
    language: t.language,
    category: t.category ?? '',
    header: header?.text ? { text: header.text, variables: variablesOf(header.text) } : null,
    body,
    variables: variablesOf(body),
    footer: part('FOOTER')?.text ?? null,
    buttons: (part('BUTTONS')?.buttons ?? []).map((b) => ({
      type: b.type ?? '',
      text: b.text ?? '',
      url: b.url ?? null,
      variables: b.type === 'URL' && b.url ? variablesOf(b.url) : 0,
    })),
  };
}

/** {{n}} replaced by the n-th value. */
function fill(text: string, values: readonly string[]): string {
  return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (m, n: string) => values[Number(n) - 1] ?? m);
}

/**
 * A template send checked against the template: one value per placeholder of the header and
 * the body, and one for each URL button ending in {{1}} (none for any other). Answers the
 * Graph API's components and the text the customer reads (header, body, footer and buttons,
 * its placeholders filled), or null when the values do not fit (or make it longer than a
 * message's text may be).
 */
export function templateMessage(
  template: WhatsappTemplate,
  send: Pick<WhatsappTemplateSend, 'header' | 'body' | 'buttons'>,
): { components: TemplateComponents; text: string } | null {
  const headerVariables = template.header?.variables ?? 0;
  if (send.header.length !== headerVariables || send.body.length !== template.variables) {
    return null;
  }
  const buttonValues = new Map(send.buttons.map((b) => [b.index, b.text]));
  if (buttonValues.size !== send.buttons.length) return null;
  const wanted = template.buttons.flatMap((b, i) => (b.variables > 0 ? [i] : []));
  if (wanted.length !== buttonValues.size || wanted.some((i) => !buttonValues.has(i))) return null;

  const text = (t: string) => ({ type: 'text' as const, text: t });
  const components: TemplateComponents = [];
  if (headerVariables > 0) components.push({ type: 'header', parameters: send.header.map(text) });
  if (template.variables > 0) components.push({ type: 'body', parameters: send.body.map(text) });
  for (const i of wanted) {
    components.push({
      type: 'button',
      sub_type: 'url',
      index: String(i),
      parameters: [text(buttonValues.get(i)!)],
    });
  }
  const buttons = template.buttons.map((b, i) =>
    b.url ? `[${b.text}: ${fill(b.url, [buttonValues.get(i) ?? ''])}]` : `[${b.text}]`,
  );
  const shown = [
    template.header ? fill(template.header.text, send.header) : '',
    fill(template.body, send.body),
    template.footer ?? '',
    buttons.join('\n'),
  ].filter((p) => p.trim() !== '');
  const shownText = shown.join('\n\n');
  // Kept as a message's text: no longer than an operator's (WhatsApp's own caps are lower).
  if (shownText.length > MESSAGE_TEXT_MAX) return null;
  return { components, text: shownText };
}
