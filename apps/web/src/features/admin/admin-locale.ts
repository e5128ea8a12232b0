import type { UiLanguage } from '@parley/protocol';
import { addAreaNamespace } from '../../lib/i18n';

/** One file per language (locales/admin/<lang>/admin.json), fetched with the admin area only. */
const files = import.meta.glob<Record<string, unknown>>('../../locales/admin/*/admin.json', {
  import: 'default',
});

async function loadAdminStrings(lang: UiLanguage): Promise<Record<string, unknown>> {
  const load =
    files[`../../locales/admin/${lang}/admin.json`] ?? files['../../locales/admin/en/admin.json'];
  if (!load) throw new Error(`no admin strings for ${lang}`);
  return load();
}

/** The `admin` namespace, loaded before the admin area first renders (and on language switches). */
export const adminStringsReady = (): Promise<void> => addAreaNamespace('admin', loadAdminStrings);
