import type { TemplateGreeting } from '../../features/add-chat/template-greeting';
import { templateRefusalText } from '../../features/whatsapp/template-refusal';
import { lazyComponent } from '../../lib/lazy-component';

/**
 * The add-chat dialog's greeting on a WhatsApp account: one of its approved templates (the
 * picker's code is fetched with the dialog's, not with the console's first screen).
 */
export const WHATSAPP_GREETING: TemplateGreeting = {
  Picker: lazyComponent(
    async () =>
      (await import('../../features/whatsapp/components/greeting-template-picker'))
        .GreetingTemplatePicker,
  ),
  refusalText: templateRefusalText,
};
