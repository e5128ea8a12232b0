import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { EmptyState } from '../../../components/empty-state';

/** Any unknown path of a signed-in operator: what happened, and the way back to the chats. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <EmptyState
      size="page"
      testId="not-found"
      icon={<strong>404</strong>}
      title={t('notFound.heading')}
      text={t('notFound.message', { path: pathname })}
      action={
        <Button component={Link} to="/home/chat" data-testid="not-found-home">
          {t('notFound.back')}
        </Button>
      }
    />
  );
}
