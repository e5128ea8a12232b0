import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';

interface Props {
  /** The search word; empty when the seat simply has no customers yet. */
  keyword: string;
  onClear: () => void;
}

/** No customer yet (the way out: the chats), or none matching (the way out: clear the search). */
export function AddressBookEmpty({ keyword, onClear }: Props) {
  const { t } = useTranslation('addressBook');
  if (keyword) {
    return (
      <EmptyState
        testId="address-book-empty"
        title={t('noMatchesTitle')}
        text={t('noMatches', { keyword })}
        action={
          <Button size="sm" variant="light" onClick={onClear} data-testid="address-book-clear">
            {t('clearSearch')}
          </Button>
        }
      />
    );
  }
  return (
    <EmptyState
      testId="address-book-empty"
      title={t('emptyTitle')}
      text={t('empty')}
      action={
        <Button size="sm" component={Link} to="/home/chat" data-testid="address-book-to-chats">
          {t('goToChats')}
        </Button>
      }
    />
  );
}
