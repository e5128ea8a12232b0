/** A client message id (8-64 characters of [A-Za-z0-9_-]) for idempotent sending. */
export function newClientMsgId(): string {
  const uuid =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID().replace(/-/g, '')
      : `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 14)}`;
  return `web_${uuid}`.slice(0, 64);
}
