import {
  SANDBOX_KEY_HEADER,
  SANDBOX_PATHS,
  type MessageType,
  type SandboxAccount,
  type SandboxEntry,
  type SandboxSend,
} from '@parley/protocol';
import { sandboxKey } from '../sandbox-key';

/** A sandbox call failed: its code (404001: the sandbox is off; 400003: another browser's customer). */
export class SandboxError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/** Every call carries this browser's key: the customers it played are bound to it. */
async function request<T>(url: string, init: RequestInit = {}): Promise<T> {
  let res: Response;
  try {
    const headers = new Headers(init.headers);
    headers.set(SANDBOX_KEY_HEADER, sandboxKey());
    res = await fetch(url, { ...init, headers });
  } catch {
    throw new SandboxError('500005');
  }
  const body = (await res.json().catch(() => null)) as { code?: string; data?: T } | null;
  if (!body || body.code !== '000000') throw new SandboxError(body?.code ?? '500005');
  return body.data as T;
}

export const sandboxAccounts = () =>
  request<{ list: SandboxAccount[] }>(SANDBOX_PATHS.accounts).then((d) => d.list);

/** Fetching is the customer's device receiving; `visible` also reads the operator's messages. */
export const sandboxChat = (account: string, customer: string) => {
  const visible = document.visibilityState === 'visible' ? '1' : '0';
  const query = new URLSearchParams({ account, customer, visible }).toString();
  return request<{ list: SandboxEntry[] }>(`${SANDBOX_PATHS.chat}?${query}`).then((d) => d.list);
};

export const sandboxSend = (body: SandboxSend) =>
  request<SandboxEntry>(SANDBOX_PATHS.send, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The message type of a picked file, by its declared type (the server checks the bytes). */
export function typeOfFile(file: File): MessageType {
  const kind = file.type.split('/')[0];
  return kind === 'image' || kind === 'audio' || kind === 'video' ? kind : 'file';
}

export function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}
