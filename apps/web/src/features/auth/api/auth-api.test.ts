import { describe, expect, it } from 'vitest';
import { safeRedirect } from './auth-api';

describe('safeRedirect', () => {
  it('follows same-site paths only', () => {
    expect(safeRedirect('/home/addressBook')).toBe('/home/addressBook');
    expect(safeRedirect(null)).toBe('/home/chat');
    expect(safeRedirect('https://evil.example')).toBe('/home/chat');
    expect(safeRedirect('//evil.example')).toBe('/home/chat');
    expect(safeRedirect('/login')).toBe('/home/chat');
  });
});
