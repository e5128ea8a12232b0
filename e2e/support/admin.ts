import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { LABEL_NAME_MAX } from '@parley/protocol';
import { adminCall } from './api';
import { expect } from './fixtures';
import { REPO_ROOT } from './server';
import type { UiLang } from './locales';

/** The demo workspace's administrator (docs/server-contract.md). */
export const DEMO_ADMIN = { account: 'admin', password: 'parley-admin' } as const;

/** The admin console's strings of one language (apps/web/src/locales/admin/<lang>/admin.json). */
export function adminText(lang: UiLang, key: string, vars: Record<string, string | number> = {}) {
  const file = path.join(REPO_ROOT, 'apps/web/src/locales/admin', lang, 'admin.json');
  let value: unknown = JSON.parse(readFileSync(file, 'utf8'));
  for (const part of key.split('.')) value = (value as Record<string, unknown>)[part];
  if (typeof value !== 'string') throw new Error(`no admin string ${key} in ${lang}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}

/** An error code's message in one language (apps/web/src/locales/<lang>/errors.json). */
export function errorText(lang: UiLang, code: string): string {
  const file = path.join(REPO_ROOT, 'apps/web/src/locales', lang, 'errors.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>)[code]!;
}

/** Signs in on /admin/login and waits for the admin console. */
export async function adminLogin(
  page: Page,
  account: string = DEMO_ADMIN.account,
  password: string = DEMO_ADMIN.password,
): Promise<void> {
  await page.goto('/admin/login');
  await page.getByTestId('admin-login-account').fill(account);
  await page.getByTestId('admin-login-password').fill(password);
  await page.getByTestId('admin-login-submit').click();
  await expect(page.getByTestId('admin-shell')).toBeVisible();
  await expect(page.getByTestId('admin-account')).toHaveText(account);
}

/** Opens an admin section from the side navigation. */
export async function adminSection(
  page: Page,
  section: 'overview' | 'seats' | 'accounts' | 'labels' | 'translation' | 'audit',
): Promise<void> {
  await page.getByTestId(`admin-nav-${section}`).click();
  await expect(page).toHaveURL(new RegExp(`/admin/${section}$`));
}

/** The seats table's row of `account`, searched for (the table renders only what is on screen). */
export async function seatRow(page: Page, account: string): Promise<Locator> {
  await page.getByTestId('seat-search').fill(account);
  const row = page.getByTestId(`seat-row-${account}`);
  await expect(row).toBeVisible();
  return row;
}

/** The phone accounts table's row of `phone`, searched for. */
export async function accountRow(page: Page, phone: string): Promise<Locator> {
  await page.getByTestId('account-search').fill(phone);
  const row = page.getByTestId(`account-row-${phone}`);
  await expect(row).toBeVisible();
  return row;
}

/** A token of the demo administrator, for set-up through the admin API. */
export async function adminToken(baseURL: string): Promise<string> {
  return (await adminCall(baseURL, '/v1/admin/login', DEMO_ADMIN)).token;
}

/**
 * Makes the phone account `phone` a team account whose one member is the seat holding it
 * (manual routing), through the admin API: what a page shows once a server has a team.
 */
export async function makeTeamAccount(baseURL: string, phone: string): Promise<void> {
  const token = await adminToken(baseURL);
  const { list } = await adminCall(baseURL, '/v1/admin/accounts/list', { keyword: phone }, token);
  const account = list.find((a) => a.send_phone === phone);
  if (!account?.seat_id) throw new Error(`no phone account ${phone} held by a seat`);
  await adminCall(
    baseURL,
    '/v1/admin/teams/set',
    {
      account_id: account.account_id,
      routing: 'manual',
      capacity: 5,
      member_ids: [account.seat_id],
    },
    token,
  );
}

/** Defines a label of the longest name the protocol allows (unique on the server). */
export async function createLongestLabel(baseURL: string): Promise<string> {
  const token = await adminToken(baseURL);
  const name = `${Date.now().toString(36)} Wholesale customers of the northern region, priority`
    .padEnd(LABEL_NAME_MAX, ' x')
    .slice(0, LABEL_NAME_MAX)
    .trim();
  await adminCall(baseURL, '/v1/admin/labels/create', { name, color: 'violet' }, token);
  return name;
}
