/**
 * A credential as the console shows it: the part before the first colon (a Telegram bot's id,
 * public) and the last 4 characters; the rest never leaves the server.
 */
export function maskSecret(secret: string): string {
  const colon = secret.indexOf(':');
  const id = colon > 0 ? secret.slice(0, colon) : '';
  return `${id}:****${secret.slice(-4)}`;
}
