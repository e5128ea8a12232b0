import '../../../components/mantine-console-styles';
import type { ComponentType } from 'react';
import type { SessionItem } from '@parley/protocol';
import { ContextMenu, type ContextMenuState } from '../../../components/context-menu';
import { useSelectUser } from '../../sessions/hooks/use-select-user';
import { openProfileCard } from '../../../stores/profile-card.store';
import { SessionActionItems } from './session-action-items';

interface Props {
  state: ContextMenuState<SessionItem> | null;
  onClose: () => void;
  Extra?: ComponentType<{ user: SessionItem }>;
}

/** The right-click menu of a user-list row. */
export function UserContextMenu({ state, onClose, Extra }: Props) {
  const selectUser = useSelectUser();
  return (
    <ContextMenu state={state} onClose={onClose} testId="user-context-menu">
      {state && (
        <SessionActionItems
          user={state.item}
          Extra={Extra}
          onProfile={() => {
            // The card shows the open chat: open this one first.
            selectUser(state.item);
            openProfileCard();
          }}
        />
      )}
    </ContextMenu>
  );
}
