import { memo, type MouseEvent } from 'react';
import { UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionItem } from '@parley/protocol';
import { CountBadge } from '../../../components/count-badge';
import type { LongPress } from '../../../components/use-long-press';
import { formatListTime } from '../../../lib/format-time';
import { CustomerAvatar } from '../../../components/customer-avatar';
import { customerNameOrNull } from '../../../lib/customer-name';
import { LabelChips } from '../../../components/label-chips';
import classes from './user-item.module.css';

interface Props {
  user: SessionItem;
  active: boolean;
  /** This seat muted the chat: its messages are not notified. */
  muted?: boolean;
  onSelect: (user: SessionItem) => void;
  /** Opens the row's context menu (the chat actions). */
  onContextMenu?: (user: SessionItem, e: MouseEvent<HTMLElement>) => void;
  /** The same menu on a touch screen: a long press. */
  longPress?: LongPress<SessionItem>;
}

export const UserItem = memo(function UserItem({
  user,
  active,
  muted = false,
  onSelect,
  onContextMenu,
  longPress,
}: Props) {
  const { t, i18n } = useTranslation('chat');
  const last = user.last_message;
  // A media message is named by its translated kind; the preview is only its own words.
  const kind = last && last.type !== 'text' ? t(`previewKind.${last.type}`) : '';
  const words = last?.preview ?? '';
  // The remark, else the channel's name, heads the row; the number stays beside it.
  const name = customerNameOrNull(user);
  // The line ends in an ellipsis when the message is long: the whole line on hover.
  const fullLine = [kind, words].filter(Boolean).join(' ');
  return (
    <UnstyledButton
      className={classes.row}
      onClick={() => onSelect(user)}
      onContextMenu={onContextMenu && ((e: MouseEvent<HTMLElement>) => onContextMenu(user, e))}
      onPointerDown={longPress && ((e) => longPress.onPointerDown(user, e))}
      onPointerMove={longPress?.onPointerMove}
      onPointerUp={longPress?.onPointerEnd}
      onPointerCancel={longPress?.onPointerEnd}
      onTouchEnd={longPress?.onTouchEnd}
      onClickCapture={longPress?.onClickCapture}
      data-testid="user-item"
      data-session-id={user.session_id}
      data-receiver-phone={user.receiver_phone}
      data-active={active ? 'true' : 'false'}
    >
      {/* Plain elements styled by the module, not Mantine's Group and Text: a screenful of rows
          is built at once (the console's first rows, a scroll), and a dozen Mantine
          components per row made that one task over 50 ms (issue 25). */}
      <div className={classes.line}>
        <CustomerAvatar customer={user} size={36} testId="user-avatar" />
        <div className={classes.body}>
          <div className={classes.head}>
            <div className={classes.title}>
              {user.is_top && (
                <span className={classes.pin} title={t('pinned')} data-testid="user-pinned">
                  <PinIcon />
                </span>
              )}
              {name && (
                <p
                  className={`${classes.text} ${classes.name}`}
                  title={name}
                  data-testid="user-name"
                >
                  {name}
                </p>
              )}
              <p
                className={`${classes.text} ${classes.phone}`}
                data-named={name ? 'true' : 'false'}
              >
                {user.receiver_phone}
              </p>
            </div>
            {muted && (
              <span
                className={classes.muted}
                title={t('muted')}
                role="img"
                aria-label={t('muted')}
                data-testid="user-muted"
              >
                <MutedIcon />
              </span>
            )}
            <p className={`${classes.text} ${classes.time}`}>
              {formatListTime(user.latest_time, i18n.language)}
            </p>
          </div>
          <div className={classes.foot}>
            <p
              className={`${classes.text} ${classes.preview}`}
              title={fullLine}
              data-testid="user-preview"
            >
              {kind && <span data-testid="user-preview-kind">{kind}</span>}
              {kind && words ? ' ' : ''}
              {words}
            </p>
            <CountBadge count={user.un_read_count} testId="user-unread" />
          </div>
          <LabelChips labels={user.labels} testId="user-labels" />
        </div>
      </div>
    </UnstyledButton>
  );
});

/** A bell struck through. */
function MutedIcon() {
  return (
    <svg
      width="12"
      height="12"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden
    >
      <path d="M13.7 21a2 2 0 0 1-3.4 0M18.6 13A17.9 17.9 0 0 1 18 8M6.3 6.3A6 6 0 0 0 6 8c0 7-3 9-3 9h14M18 8a6 6 0 0 0-9.3-5M2 2l20 20" />
    </svg>
  );
}

function PinIcon() {
  return (
    <svg width="12" height="12" viewBox="0 0 24 24" fill="currentColor" aria-hidden>
      <path d="M16 3l5 5-3 1-4 4 1 5-2 2-4-4-5 5-1-1 5-5-4-4 2-2 5 1 4-4z" />
    </svg>
  );
}
