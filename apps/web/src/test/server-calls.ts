import { afterEach, beforeEach, expect } from 'vitest';
import { ADMIN_CALLS, CALLS, SUCCESS_CODE } from '@parley/protocol';

/**
 * The network boundary of a component test: the component's calls leave through the real
 * request layer (lib/api-client.ts, admin-client.ts) to `fetch`, and are answered here. Each
 * request body is checked against the protocol's schema for its path, and so is each answer,
 * so what a test submits and receives is what the real server would accept and send.
 */
export interface SentCall {
  path: string;
  body: Record<string, unknown>;
}

type Answer =
  | { data: unknown }
  | { code: string; msg: string; data?: unknown }
  | ((
      body: Record<string, unknown>,
    ) => { data: unknown } | { code: string; msg: string; data?: unknown });

const SCHEMAS: Record<
  string,
  {
    request: { safeParse(v: unknown): { success: boolean } };
    response: { safeParse(v: unknown): { success: boolean; error?: unknown } };
  }
> = {
  ...CALLS,
  ...ADMIN_CALLS,
};

let answers = new Map<string, Answer>();
let sent: SentCall[] = [];
const realFetch = globalThis.fetch;

/** Answers for this test, by path (a call without one fails the test). */
export function answerCalls(byPath: Record<string, Answer>): void {
  for (const [path, answer] of Object.entries(byPath)) answers.set(path, answer);
}

/** The calls sent so far, in order; `path`: only that one's. */
export function sentCalls(path?: string): SentCall[] {
  return path ? sent.filter((c) => c.path === path) : [...sent];
}

beforeEach(() => {
  answers = new Map();
  sent = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const path =
      typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    const schema = SCHEMAS[path];
    expect(schema, `a call the protocol does not have: ${path}`).toBeDefined();
    expect(schema!.request.safeParse(body).success, `${path} sent ${JSON.stringify(body)}`).toBe(
      true,
    );
    sent.push({ path, body });
    const answer = answers.get(path);
    expect(answer, `no answer given for ${path}`).toBeDefined();
    const given = typeof answer === 'function' ? answer(body) : answer!;
    let envelope: unknown;
    if ('code' in given) {
      envelope = { code: given.code, msg: given.msg, data: given.data ?? null };
    } else {
      const checked = schema!.response.safeParse(given.data);
      expect(checked.success, `${path}'s answer is not the protocol's`).toBe(true);
      envelope = { code: SUCCESS_CODE, msg: 'success', data: given.data };
    }
    return new Response(JSON.stringify(envelope), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
});

afterEach(() => {
  globalThis.fetch = realFetch;
});
