import '../../components/mantine-console-styles';
import { Box } from '@mantine/core';
import { GroupList } from '../../features/groups/components/group-list';
import { BatchReplyButton } from '../../features/batch/components/batch-reply-button';
import { ChatPane } from './chat/chat-pane';
import { preloadOpenChat } from './chat/lazy-open-chat';
import { UserList } from './user-list';
import { lazyComponent } from '../../lib/lazy-component';
import { useOpenedOnce } from '../../lib/use-opened-once';
import { useProfileCardOpened } from '../../stores/profile-card.store';
import { useSessionDialog } from '../../stores/session-dialogs.store';
import classes from './console-page.module.css';

const ProfileCard = lazyComponent(
  async () => (await import('../../features/profile/components/profile-card')).ProfileCard,
);
const CustomerLanguageField = lazyComponent(
  async () =>
    (await import('../../features/translation/components/customer-language-field'))
      .CustomerLanguageField,
);
const SessionDialogs = lazyComponent(
  async () =>
    (await import('../../features/session-actions/components/session-dialogs')).SessionDialogs,
);

/**
 * The chat console: groups | users of the group | chat. It composes the features: what one
 * feature shows of another (batch reply in the group list, the customer's language in the
 * profile card) is handed in here.
 */
export function ConsolePage() {
  return (
    <Box className={classes.grid}>
      <section className={classes.groups}>
        <GroupList actions={<BatchReplyButton />} />
      </section>
      {/* On the way to a chat: its code is fetched while the pointer is over the list. */}
      <section className={classes.users} onPointerEnter={preloadOpenChat} onFocus={preloadOpenChat}>
        <UserList />
      </section>
      <section className={classes.chat}>
        <ChatPane />
      </section>
      <LazyProfileCard />
      <LazySessionDialogs />
    </Box>
  );
}

/** The profile card's code is fetched the first time it opens (then it stays mounted). */
function LazyProfileCard() {
  const mounted = useOpenedOnce(useProfileCardOpened());
  return mounted ? <ProfileCard LanguageField={CustomerLanguageField} /> : null;
}

/** The chat action dialogs, fetched when one first opens. */
function LazySessionDialogs() {
  const mounted = useOpenedOnce(useSessionDialog() !== null);
  return mounted ? <SessionDialogs /> : null;
}
