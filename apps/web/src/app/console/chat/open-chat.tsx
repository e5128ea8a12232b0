import { useDeferredValue } from 'react';
import type { SessionItem } from '@parley/protocol';
import '../../../components/mantine-console-styles';
import { useConsole } from '../../../stores/console.store';
import { takeReplyTarget } from '../../../stores/reply-target.store';
import { UnservedPairNotice } from '../../../features/translation/components/unserved-pair-notice';
import { useSendMedia } from '../../../features/messages/hooks/use-send-media';
import { useSendMessage } from '../../../features/messages/hooks/use-send-message';
import { ChatDropZone } from '../../../features/chat/components/chat-drop-zone';
import { MessageListSkeleton } from '../../../features/chat/components/message-list-skeleton';
import { TagsView } from '../../../features/chat/components/tags-view';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { ChatHeader } from './chat-header';
import { useReplyWindow } from '../../../features/sessions/hooks/use-reply-window';
import { TeamChatNotes } from '../../../features/team/components/team-notes';
import { accountChannel } from '../../../lib/account-channel';
import { channelView } from '../../channels';

const BACKDROP = { flex: 1, minHeight: 0, display: 'flex' } as const;

/**
 * The open chat: header, messages, composer. Its code (the message list, the composer and
 * what they bring: emoji, quick replies, translation, recording, menus) is fetched when the
 * operator first opens a chat, not with the console's first screen.
 *
 * A switch paints the header (and the list's active row) at once; the new chat's messages and
 * composer are built in a deferred render, which React does in slices that let the browser
 * paint and take input between them: built in the click's own task, they made it one task of
 * 50-150 ms (issue 25, bench/README.md). Until that render is done the list's skeleton shows:
 * never the previous chat's messages, nor a composer that would still send to it.
 */
export function OpenChat({ user }: { user: SessionItem }) {
  const groupDisabled = useConsole((s) => s.selectedGroup?.disabled ?? false);
  const { send, retry } = useSendMessage();
  const { sendFiles, sendVoice } = useSendMedia();
  const built = useDeferredValue(user.session_id, null) === user.session_id;
  const disabled = groupDisabled || user.blocked;
  // The chat's own fields say whether free text goes (its channel's reply window); past it the
  // channel's composer (WhatsApp's templates) takes the composer's place.
  const { canReply } = useReplyWindow(user);
  const { ComposerNotice, PastWindowComposer } = channelView(accountChannel(user.send_phone));
  const onFiles = (files: File[]) => sendFiles(user, files);
  return (
    <ChatDropZone enabled={!disabled} onFiles={onFiles}>
      <TagsView />
      <ChatHeader user={user} disabled={disabled} />
      <UnservedPairNotice user={user} />
      {built ? (
        <>
          <div className="chat-backdrop" style={BACKDROP}>
            <MessageList key={user.session_id} user={user} onRetry={retry} />
          </div>
          <TeamChatNotes user={user} />
          {ComposerNotice && <ComposerNotice user={user} />}
          {!canReply && PastWindowComposer ? (
            <PastWindowComposer key={user.session_id} user={user} disabled={disabled} />
          ) : (
            <Composer
              key={user.session_id}
              user={user}
              disabled={disabled}
              onSend={(text, original) =>
                send(user, text, original, takeReplyTarget(user.session_id))
              }
              onFiles={onFiles}
              onVoice={(note) => sendVoice(user, note.blob, note.fileName, note.durationMs)}
            />
          )}
        </>
      ) : (
        <div className="chat-backdrop" style={BACKDROP} data-testid="message-list">
          <MessageListSkeleton />
        </div>
      )}
    </ChatDropZone>
  );
}
