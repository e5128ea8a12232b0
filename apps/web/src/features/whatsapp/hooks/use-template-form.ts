import { useCallback, useState } from 'react';
import type { WhatsappTemplate, WhatsappTemplateSend } from '@parley/protocol';
import {
  emptyValues,
  isComplete,
  templateKey,
  toTemplateSend,
  type TemplateValues,
} from '../template-values';

export type TemplatePart = 'header' | 'body' | 'button';

/** A template chosen from `templates` and its placeholders' values as the operator types them. */
export function useTemplateForm(templates: readonly WhatsappTemplate[]) {
  const [key, setKey] = useState<string | null>(null);
  const [values, setValues] = useState<TemplateValues | null>(null);
  const template = templates.find((t) => templateKey(t) === key) ?? null;

  const select = useCallback(
    (next: string | null) => {
      setKey(next);
      const chosen = templates.find((t) => templateKey(t) === next);
      setValues(chosen ? emptyValues(chosen) : null);
    },
    [templates],
  );

  const setValue = useCallback((part: TemplatePart, index: number, text: string) => {
    setValues((v) => {
      if (!v) return v;
      if (part === 'button') return { ...v, buttons: { ...v.buttons, [index]: text } };
      const list = [...v[part]];
      list[index] = text;
      return { ...v, [part]: list };
    });
  }, []);

  const complete = template !== null && values !== null && isComplete(values);
  const send = (): WhatsappTemplateSend | null =>
    template && values && complete ? toTemplateSend(template, values) : null;

  return { key, template, values, select, setValue, complete, send };
}

export type TemplateForm = ReturnType<typeof useTemplateForm>;
