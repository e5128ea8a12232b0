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
/** What broke the protocol: failed after the test, as a call the request layer swallows
 * (a network error) would otherwise only leave the component waiting. */
let problems: string[] = [];
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
  problems = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const path =
      typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    const schema = SCHEMAS[path];
    const answer = answers.get(path);
    const problem = !schema
      ? `a call the protocol does not have: ${path}`
      : !schema.request.safeParse(body).success
        ? `${path} sent what the protocol refuses: ${JSON.stringify(body)}`
        : !answer
          ? `no answer given for ${path}`
          : null;
    if (problem) {
      problems.push(problem);
      throw new TypeError(problem);
    }
    sent.push({ path, body });
    const given = typeof answer === 'function' ? answer(body) : answer!;
    let envelope: unknown;
    if ('code' in given) {
      envelope = { code: given.code, msg: given.msg, data: given.data ?? null };
    } else {
      if (!schema!.response.safeParse(given.data).success) {
        problems.push(`${path}'s answer is not the protocol's`);
        throw new TypeError(problems.at(-1));
      }
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
  expect(problems).toEqual([]);
});
