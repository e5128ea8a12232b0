import type { TemplateGreeting } from '../../lib/channel-view';

export type { TemplateGreeting };

/**
 * A new chat's greeting on an account whose channel greets with a template, by the account's
 * channel (undefined: it greets with text): the console hands the dialog each channel's picker
 * (its view, lib/channel-view.ts), so this feature imports no other.
 */
export type TemplateGreetingOf = (channel: string | undefined) => TemplateGreeting | undefined;
