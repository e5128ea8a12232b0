import { memo } from 'react';
import { Group, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMessageTime } from '../../../lib/format-time';
import type { SearchHit } from '../api/search-queries';
import { excerptAround } from '../highlight';
import { HighlightedText } from './highlighted-text';
import classes from './search-hit-item.module.css';

interface Props {
  hit: SearchHit;
  word: string;
  onOpen: (hit: SearchHit) => void;
}

/** One result: the chat (remark or number, and the account), the time, the text. */
export const SearchHitItem = memo(function SearchHitItem({ hit, word, onOpen }: Props) {
  const { t, i18n } = useTranslation(['search', 'chat']);
  const { message: m, session: s } = hit;
  const text = m.type === 'text' ? m.content : `[${t(`chat:messageType.${m.type}`)}] ${m.content}`;
  return (
    <UnstyledButton
      className={classes.item}
      onClick={() => onOpen(hit)}
      data-testid="message-search-hit"
      data-msg-id={m.msg_id}
      data-session-id={s.session_id}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" fw={600} truncate data-testid="message-search-hit-chat">
          {s.remark || s.receiver_phone}
          <Text span size="xs" c="dimmed" fw={400} ml={6}>
            {s.remark ? `${s.receiver_phone} · ` : ''}
            {t('search:via', { phone: s.send_phone })}
          </Text>
        </Text>
        <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
          {formatMessageTime(m.created_at, i18n.language)}
        </Text>
      </Group>
      <Text size="sm" lineClamp={2} data-testid="message-search-hit-text">
        {m.direction === 'out' && (
          <Text span size="xs" c="dimmed" mr={4}>
            {t('search:you')}
          </Text>
        )}
        <HighlightedText text={excerptAround(text, word)} word={word} />
      </Text>
    </UnstyledButton>
  );
});
