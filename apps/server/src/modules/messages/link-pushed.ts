import { hasInviteLink } from '../../lib/invite-link.js';

/**
 * The spec's "link pushed" rule (product.md), written once for both writers: an operator's
 * message that carries an invitation link (lib/invite-link.ts) moves its chat to the built-in
 * link-pushed group, unless it is there already.
 */
export function carriesInviteLink(
  content: string | null | undefined,
  originalContent: string | null | undefined,
): boolean {
  return hasInviteLink(content) || hasInviteLink(originalContent);
}

export function movesToLinkPushed(
  session: { group_type: string },
  content: string | null | undefined,
  originalContent: string | null | undefined,
): boolean {
  return session.group_type !== 'tg_link_pushed' && carriesInviteLink(content, originalContent);
}
