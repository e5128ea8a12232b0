/**
 * The invitation link of the spec's "link pushed" rule, as a text pattern (no channel's code):
 * a Telegram link in an operator's message: `t.me/…`, `telegram.me/…`, `telegram.dog/…` (with
 * or without http(s):// and www.) or the app's own `tg://…` scheme. Sending one moves the chat
 * to the built-in "TG link pushed" group (product.md): the customer was invited over to Telegram.
 */
const INVITE_LINK =
  /(?:^|[^\w.-])(?:https?:\/\/)?(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)\/[\w+-]|(?:^|[^\w.-])tg:\/\/\w/i;

export function hasInviteLink(text: string | null | undefined): boolean {
  return !!text && INVITE_LINK.test(text);
}
