import '../mantine-admin-styles';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { EmptyState } from '../../../components/empty-state';

/** An unknown /admin path: what happened and the way back to the overview. */
export function AdminNotFound() {
  const { t } = useTranslation('admin');
  const { pathname } = useLocation();
  return (
    <EmptyState
      testId="admin-not-found"
      icon={<strong>404</strong>}
      title={t('notFound.heading')}
      text={t('notFound.message', { path: pathname })}
      action={
        <Button component={Link} to="/admin/overview">
          {t('notFound.back')}
        </Button>
      }
    />
  );
}
