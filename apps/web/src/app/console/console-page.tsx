import '../../components/mantine-console-styles';
import { memo, useEffect, type ReactNode } from 'react';
import { Box, Drawer } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { GroupList } from '../../features/groups/components/group-list';
import {
  BatchReplyButton,
  BatchReplyHost,
} from '../../features/batch/components/batch-reply-button';
import { useBatch } from '../../features/batch/batch.store';
import { useChatUrl } from '../../features/sessions/hooks/use-chat-url';
import { useGroupSelectionSync } from '../../features/sessions/hooks/use-group-list';
import { ChatPane } from './chat/chat-pane';
import { preloadOpenChat } from './chat/lazy-open-chat';
import { UserList } from './user-list';
import { lazyComponent } from '../../lib/lazy-component';
import { useOpenedOnce } from '../../lib/use-opened-once';
import { useProfileCardOpened } from '../../stores/profile-card.store';
import { useSessionDialog } from '../../stores/session-dialogs.store';
import { setGroupsDrawer, useConsole } from '../../stores/console.store';
import { useConsoleWidth } from './use-console-width';
import { useConsoleShortcuts } from '../../features/shortcuts/use-console-shortcuts';
import { ShortcutsDialog } from '../../features/shortcuts/shortcuts-dialog';
import { QueuePlace } from '../../features/team/components/queue-place';
import { useReplyConfirm } from '../../features/messages/outbox/reply-confirm.store';
import { useTeamShortcuts } from '../../features/team/hooks/use-team-shortcuts';
import { closeQueue, useTeamView } from '../../features/team/team-view.store';
import { channelView } from '../channels';
import classes from './console-page.module.css';

// The queue's list only for a member who opens it: its code stays out of the first screen.
const QueueList = lazyComponent(
  async () => (await import('../../features/team/components/queue-list')).QueueList,
);
// Hand over… is a team member's action on an open chat: its dialog (a Mantine Select, its
// combobox) is fetched when first opened.
const HandOverDialogHost = lazyComponent(
  async () => (await import('../../features/team/components/hand-over-dialog')).HandOverDialogHost,
);
const ReplyConfirmHost = lazyComponent(
  async () =>
    (await import('../../features/team/components/reply-confirm-dialog')).ReplyConfirmHost,
);
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
 *
 * It folds with the width (use-console-width.ts): below 1200 px the groups are a drawer
 * opened from the header; below 768 px the list and the chat are two screens, the chat's
 * linked by the URL (?chat=) so the browser's back returns to the list. The hidden screen
 * stays mounted (visibility, not display) so the list keeps its scroll.
 */
export function ConsolePage() {
  return (
    <>
      <ChatUrl />
      <GroupSelectionSync />
      <ConsoleGrid />
    </>
  );
}

/**
 * The URL follows every switch (?chat=), and a navigation renders the route's component again:
 * only this leaf reads the URL, so the console under it is not rendered over for it.
 */
function ChatUrl() {
  useChatUrl();
  return null;
}

/**
 * Keeps the selected group in step with the polled group list. Here, not in the group list
 * (below 1200 px that list is in a drawer, mounted only open), and in a leaf: in the grid, each
 * new group list (the first one at sign-in, then the poll) rendered the whole console over
 * (issue 25, no long task).
 */
function GroupSelectionSync() {
  useGroupSelectionSync();
  return null;
}

const ConsoleGrid = memo(function ConsoleGrid() {
  const [help, setHelp] = useConsoleShortcuts();
  useTeamShortcuts();
  const queueOpen = useTeamView((s) => s.queueOpen);
  const preview = useTeamView((s) => s.preview !== null);
  // Mounted at its first opening: not part of the console's first commit.
  const helpMounted = useOpenedOnce(help);
  const width = useConsoleWidth();
  const chatOpen = useConsole((s) => s.selectedUser !== null || s.missingChat !== null) || preview;
  const groups = (
    <GroupList
      actions={<BatchReplyButton />}
      places={<QueuePlace />}
      onSelectGroup={closeQueue}
      placeOpen={queueOpen}
    />
  );
  return (
    <Box
      className={classes.grid}
      data-width={width}
      data-screen={chatOpen ? 'chat' : 'list'}
      data-testid="console-grid"
    >
      {width === 'wide' ? (
        <section className={classes.groups}>{groups}</section>
      ) : (
        <GroupsDrawer>{groups}</GroupsDrawer>
      )}
      {/* On the way to a chat: its code is fetched while the pointer is over the list. */}
      <section
        className={classes.users}
        id="chat-list"
        onPointerEnter={preloadOpenChat}
        onFocus={preloadOpenChat}
      >
        {queueOpen ? <QueueList /> : <UserList />}
      </section>
      <section className={classes.chat} id="chat-pane">
        <ChatPane />
      </section>
      <LazyProfileCard />
      <LazySessionDialogs />
      <BatchReplyHost />
      <LazyHandOver />
      <LazyReplyConfirm />
      {helpMounted && <ShortcutsDialog opened={help} onClose={() => setHelp(false)} />}
    </Box>
  );
});

/** The groups of a narrow console; picking a group or opening batch reply closes it. */
function GroupsDrawer({ children }: { children: ReactNode }) {
  const { t } = useTranslation('groups');
  const opened = useConsole((s) => s.groupsDrawer);
  const groupId = useConsole((s) => s.selectedGroup?.group_id ?? null);
  useEffect(() => setGroupsDrawer(false), [groupId]);
  // Batch reply opened from the drawer: its dialog takes the screen, the drawer's job is done.
  const batchOpen = useBatch((s) => s.visible);
  useEffect(() => {
    if (batchOpen) setGroupsDrawer(false);
  }, [batchOpen]);
  return (
    <Drawer
      opened={opened}
      onClose={() => setGroupsDrawer(false)}
      size={300}
      padding={0}
      title={t('title')}
      styles={{ body: { height: 'calc(100% - 60px)' } }}
    >
      {children}
    </Drawer>
  );
}

/** The profile card's code is fetched the first time it opens (then it stays mounted). */
function LazyProfileCard() {
  const mounted = useOpenedOnce(useProfileCardOpened());
  return mounted ? (
    <ProfileCard LanguageField={CustomerLanguageField} channelView={channelView} />
  ) : null;
}

/** The hand-over dialog, fetched when it first opens. */
function LazyHandOver() {
  const mounted = useOpenedOnce(useTeamView((s) => s.handOver !== null));
  return mounted ? <HandOverDialogHost /> : null;
}

/** "Send anyway?" after another member's reply a moment ago, fetched when first asked. */
function LazyReplyConfirm() {
  const mounted = useOpenedOnce(useReplyConfirm() !== null);
  return mounted ? <ReplyConfirmHost /> : null;
}

/** The chat action dialogs, fetched when one first opens. */
function LazySessionDialogs() {
  const mounted = useOpenedOnce(useSessionDialog() !== null);
  return mounted ? <SessionDialogs /> : null;
}
