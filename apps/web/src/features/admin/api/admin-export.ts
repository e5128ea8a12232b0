import { ADMIN_EXPORT_PATHS } from '@parley/protocol';
import { ApiError } from '../../../lib/api-core';
import { translateCode } from '../../../lib/i18n';
import { readAdminToken } from './admin-token';

export type ExportKind = keyof typeof ADMIN_EXPORT_PATHS;

/**
 * Downloads a CSV export: fetched with the admin token in `Authorization` (never in a URL,
 * where it would land in history and logs), then saved from a Blob under the server's name.
 */
export async function downloadExport(
  kind: ExportKind,
  query: Record<string, string | number | undefined>,
): Promise<void> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== '') params.set(k, String(v));
  const headers: Record<string, string> = {};
  const token = readAdminToken();
  if (token) headers.Authorization = token;
  const res = await fetch(`${ADMIN_EXPORT_PATHS[kind]}?${params}`, { headers });
  if (!res.ok || !res.headers.get('content-type')?.startsWith('text/csv')) {
    const body = (await res.json().catch(() => null)) as { code?: string } | null;
    const code = body?.code ?? '999999';
    throw new ApiError(code, translateCode(code) ?? code);
  }
  const name =
    /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `${kind}.csv`;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
