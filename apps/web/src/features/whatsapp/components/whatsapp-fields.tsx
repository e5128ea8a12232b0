import { PasswordInput, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface WhatsappForm {
  phone_number_id: string;
  waba_id: string;
  access_token: string;
  app_secret: string;
}

export const EMPTY_WHATSAPP: WhatsappForm = {
  phone_number_id: '',
  waba_id: '',
  access_token: '',
  app_secret: '',
};

/** The first empty field of the form, or null when all are filled. */
export function missingWhatsappField(form: WhatsappForm): keyof WhatsappForm | null {
  const order: (keyof WhatsappForm)[] = [
    'phone_number_id',
    'waba_id',
    'access_token',
    'app_secret',
  ];
  return order.find((k) => !form[k].trim()) ?? null;
}

/**
 * What binds an account to a WhatsApp Business number (from Meta's app dashboard): checked with
 * the Graph API before it is stored. The token and secret are typed, never shown back.
 */
export function WhatsappFields({
  value,
  onChange,
  errors,
}: {
  value: WhatsappForm;
  onChange: (next: WhatsappForm) => void;
  /** A message per refused or missing field. */
  errors: Partial<Record<keyof WhatsappForm, string>>;
}) {
  const { t } = useTranslation('admin');
  const field = (key: keyof WhatsappForm) => ({
    label: t(`accounts.whatsapp.fields.${key}`),
    value: value[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
      onChange({ ...value, [key]: e.currentTarget.value }),
    error: errors[key],
    autoComplete: 'off',
    'data-testid': `whatsapp-${key.replace(/_/g, '-')}`,
  });
  return (
    <Stack gap="xs">
      <TextInput {...field('phone_number_id')} inputMode="numeric" />
      <TextInput {...field('waba_id')} inputMode="numeric" />
      <PasswordInput
        {...field('access_token')}
        description={t('accounts.whatsapp.fields.accessTokenHint')}
      />
      <PasswordInput {...field('app_secret')} />
    </Stack>
  );
}
