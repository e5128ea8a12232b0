import { invalidField } from './app-error.js';

/**
 * How deep a request's JSON may nest. Every body of the protocol is a few levels deep; a
 * deeper one is built to hurt (a recursive walk of 10,000 levels overflows the stack).
 */
export const JSON_MAX_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether JSON text nests deeper than `max` arrays/objects. One pass, no recursion, no
 * allocation: it counts brackets outside strings, so it is linear in the text whatever it holds
 * (malformed text is left to JSON.parse).
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * A request's JSON body: empty counts as `{}` (the client strips empty fields); nesting past
 * JSON_MAX_DEPTH and malformed JSON are 100001, before anything else looks at the body.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return {};
  if (nestsDeeperThan(text, JSON_MAX_DEPTH)) {
    throw invalidField('body', `nested deeper than ${JSON_MAX_DEPTH} levels`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidField('body', 'malformed JSON');
  }
}
