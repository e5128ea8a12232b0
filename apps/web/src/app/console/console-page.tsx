import '../../components/mantine-console-styles';
import { Box } from '@mantine/core';
import { GroupList } from '../../features/groups/components/group-list';
import { BatchReplyButton } from '../../features/batch/components/batch-reply-button';
import { CustomerLanguageField } from '../../features/translation/components/customer-language-field';
import { ChatPane } from './chat/chat-pane';
import { UserList } from './user-list';
import { ProfileCard } from '../../features/profile/components/profile-card';
import { SessionDialogs } from '../../features/session-actions/components/session-dialogs';
import classes from './console-page.module.css';

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
      <section className={classes.users}>
        <UserList />
      </section>
      <section className={classes.chat}>
        <ChatPane />
      </section>
      <ProfileCard LanguageField={CustomerLanguageField} />
      <SessionDialogs />
    </Box>
  );
}
