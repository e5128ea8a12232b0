import { describe, expect, it } from 'vitest';
import { REMARK_MAX } from '@parley/protocol';
import { moveError, remarkError } from './session-validation';

describe('remarkError', () => {
  it('accepts empty and up to REMARK_MAX characters after trimming', () => {
    expect(remarkError('')).toBeNull();
    expect(remarkError(`  ${'x'.repeat(REMARK_MAX)}  `)).toBeNull();
    expect(remarkError('x'.repeat(REMARK_MAX + 1))).toBe('tooLong');
  });
});

describe('moveError', () => {
  it('needs a group, different from the current one', () => {
    expect(moveError(null, 3)).toBe('groupRequired');
    expect(moveError(3, 3)).toBe('sameGroup');
    expect(moveError(4, 3)).toBeNull();
  });
});
