import { Box } from '@mantine/core';
import { GroupList } from '../../features/groups/components/group-list';
import { UserList } from '../../features/sessions/components/user-list';
import { ChatPane } from '../../features/chat/components/chat-pane';
import { ProfileCard } from '../../features/profile/components/profile-card';
import { SessionDialogs } from '../../features/session-actions/components/session-dialogs';
import classes from './console-page.module.css';

/** The chat console: groups | users of the group | chat. */
export function ConsolePage() {
  return (
    <Box className={classes.grid}>
      <section className={classes.groups}>
        <GroupList />
      </section>
      <section className={classes.users}>
        <UserList />
      </section>
      <section className={classes.chat}>
        <ChatPane />
      </section>
      <ProfileCard />
      <SessionDialogs />
    </Box>
  );
}
