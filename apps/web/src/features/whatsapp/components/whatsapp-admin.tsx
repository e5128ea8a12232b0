import { useImperativeHandle, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AdminPhoneAccount } from '@parley/protocol';
import type { AdminCaller, CredentialsProps } from '../../../lib/channel-view';
import {
  EMPTY_WHATSAPP,
  missingWhatsappField,
  WhatsappFields,
  type WhatsappForm,
} from './whatsapp-fields';
import { WhatsappStateBadge, WhatsappStatusPanel } from './whatsapp-status';

/** The account list's badge: the number's token state. */
export function WhatsappStatusBadge({ account }: { account: AdminPhoneAccount }) {
  return account.whatsapp ? <WhatsappStateBadge status={account.whatsapp} /> : null;
}

/** The bound number's state and what to paste into Meta's settings, re-read while open. */
export function WhatsappBoundPanel({
  account,
  callAdmin,
}: {
  account: AdminPhoneAccount;
  callAdmin: AdminCaller;
}) {
  const { t } = useTranslation('admin');
  const status = useQuery({
    queryKey: ['admin', 'accounts', 'whatsapp', account.account_id],
    queryFn: ({ signal }) =>
      callAdmin(
        '/v1/admin/accounts/whatsappStatus',
        { account_id: account.account_id },
        { signal },
      ),
    // Shown again right after binding in the dialog: what it knew before is out of date.
    refetchOnMount: 'always',
    refetchInterval: 10_000,
  });
  return (
    <>
      {status.isPending ? <Loader size="sm" aria-label={t('loading')} /> : null}
      {status.data ? <WhatsappStatusPanel status={status.data} /> : null}
      {status.data === null && <Alert color="yellow">{t('accounts.whatsapp.none')}</Alert>}
    </>
  );
}

/** The number's IDs, token and app secret (checked with the Graph API before they are stored). */
export function WhatsappCredentials({ formRef, refused }: CredentialsProps) {
  const { t } = useTranslation('admin');
  const [wa, setWa] = useState<WhatsappForm>(EMPTY_WHATSAPP);
  const [missing, setMissing] = useState<keyof WhatsappForm | null>(null);
  // The dialog's submit asks the fields of the render it sees.
  useImperativeHandle(formRef, () => ({
    collect: () => {
      const first = missingWhatsappField(wa);
      setMissing(first);
      if (first) return null;
      return {
        phone_number_id: wa.phone_number_id.trim(),
        waba_id: wa.waba_id.trim(),
        access_token: wa.access_token.trim(),
        app_secret: wa.app_secret.trim(),
      };
    },
  }));
  const errors: Partial<Record<keyof WhatsappForm, string>> = {};
  if (missing) errors[missing] = t('accounts.whatsapp.required');
  else {
    for (const f of refused?.fields ?? []) {
      if (f in EMPTY_WHATSAPP)
        errors[f as keyof WhatsappForm] = t('accounts.whatsapp.refused', {
          reason: refused?.message ?? '',
        });
    }
  }
  return <WhatsappFields value={wa} onChange={setWa} errors={errors} />;
}
