import { Badge, Group, Paper, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SlashSuggestions as Slash } from '../hooks/use-slash-suggestions';
import classes from './slash-suggestions.module.css';

/** The list `/` opens above the composer. */
export function SlashSuggestions({ slash }: { slash: Slash }) {
  const { t } = useTranslation('quickReplies');
  if (!slash.open) return null;
  return (
    <Paper
      shadow="md"
      withBorder
      className={classes.list}
      role="listbox"
      aria-label={t('suggestions')}
      data-testid="slash-suggestions"
    >
      {slash.items.map((item, i) => (
        <UnstyledButton
          key={item.id}
          className={classes.item}
          role="option"
          aria-selected={i === slash.activeIndex}
          data-active={i === slash.activeIndex ? 'true' : undefined}
          // Keep the focus (and the caret) in the composer.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => slash.pick(item)}
          data-testid="slash-item"
          data-id={item.id}
          data-kind={item.kind}
        >
          <Group gap={6} wrap="nowrap">
            {item.kind !== 'text' && (
              <Badge size="xs" variant="light">
                {t(`kind.${item.kind}`)}
              </Badge>
            )}
            <Text size="sm" fw={600} truncate>
              {item.name}
            </Text>
          </Group>
          <Text size="xs" c="dimmed" truncate>
            {item.content}
          </Text>
        </UnstyledButton>
      ))}
    </Paper>
  );
}
