import { CloseButton, Group, ScrollArea, UnstyledButton, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { consoleStore, removeTag, selectGroup, useConsole } from '../../../stores/console.store';
import { useSelectUser } from '../../sessions/hooks/use-select-user';
import type { TagsViewEntry } from '../../../lib/storage';
import classes from './tags-view.module.css';
import { cachedGroupLists } from '../../sessions/api/session-cache';

/** The strip of recently opened chats (the spec's `tagsView`). */
export function TagsView() {
  const tags = useConsole((s) => s.tagsView);
  const activeId = useConsole((s) => s.selectedUser?.session_id ?? null);
  const qc = useQueryClient();
  const openChat = useSelectUser();
  if (tags.length === 0) return null;

  const open = (tag: TagsViewEntry) => {
    if (consoleStore.get().selectedGroup?.group_id !== tag.group_id) {
      const lists = cachedGroupLists(qc);
      const group = lists
        .flatMap(([, d]) => d?.group_list ?? [])
        .find((g) => g.group_id === tag.group_id);
      if (!group) return removeTag(tag.session_id);
      selectGroup(group);
    }
    openChat(tag);
  };

  return (
    <ScrollArea type="never" className={classes.strip}>
      <Group gap={6} wrap="nowrap" px="sm" py={6}>
        {tags.map((tag) => (
          <div
            key={tag.session_id}
            className={classes.tag}
            data-active={tag.session_id === activeId}
          >
            <UnstyledButton onClick={() => open(tag)} data-testid="tags-view-item">
              {/* A long remark ends in an ellipsis; the whole of it on hover. */}
              <Text size="xs" truncate maw={200} title={tag.remark || tag.receiver_phone}>
                {tag.remark || tag.receiver_phone}
              </Text>
            </UnstyledButton>
            <CloseButton size="xs" onClick={() => removeTag(tag.session_id)} />
          </div>
        ))}
      </Group>
    </ScrollArea>
  );
}
