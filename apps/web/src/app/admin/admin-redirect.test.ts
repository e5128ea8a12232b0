import { describe, expect, it } from 'vitest';
import { safeAdminRedirect } from './admin-redirect';

describe('the admin redirect', () => {
  it('stays inside the admin area', () => {
    expect(safeAdminRedirect('/admin/seats?x=1')).toBe('/admin/seats?x=1');
    expect(safeAdminRedirect('/home/chat')).toBe('/admin/overview');
    expect(safeAdminRedirect('https://evil.example/admin/')).toBe('/admin/overview');
    expect(safeAdminRedirect('/admin/login?redirect=/x')).toBe('/admin/overview');
    expect(safeAdminRedirect(null)).toBe('/admin/overview');
  });
});
