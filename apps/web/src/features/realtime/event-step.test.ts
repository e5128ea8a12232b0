import { describe, expect, it } from 'vitest';
import { eventStep } from './push-connection';

describe('a gap in the seat’s event ids', () => {
  it('applies the next id and ignores one handled already', () => {
    expect(eventStep(7, 8, null)).toBe('apply');
    expect(eventStep(7, 7, null)).toBe('old');
    expect(eventStep(7, 3, 7)).toBe('old');
    // A seat without events yet: its first is 1.
    expect(eventStep(0, 1, null)).toBe('apply');
  });

  it('resumes from the last id before a gap, so the server replays what is missing', () => {
    expect(eventStep(7, 9, null)).toBe('resume');
    expect(eventStep(0, 5, null)).toBe('resume');
    // A gap further on, after an earlier one was filled.
    expect(eventStep(12, 20, 7)).toBe('resume');
  });

  it('refetches instead when the same gap comes right after resuming from there', () => {
    expect(eventStep(7, 9, 7)).toBe('refetch');
    // Once past it, the next id applies again.
    expect(eventStep(9, 10, 7)).toBe('apply');
  });
});
