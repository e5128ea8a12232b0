import { useState } from 'react';
import { ActionIcon, Popover, SimpleGrid, Tabs, Text, UnstyledButton } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { EMOJI, EMOJI_CATEGORIES, type EmojiCategory } from '../emoji-data';
import { rememberEmoji, useFrequentEmoji } from '../frequent-emoji';
import classes from './emoji-picker.module.css';

interface Props {
  disabled?: boolean;
  /** Called with the emoji picked (the composer inserts it at its caret). */
  onPick: (emoji: string) => void;
}

/** The composer's emoji button and picker, with the spec's categories. */
export function EmojiPicker({ disabled, onPick }: Props) {
  const { t } = useTranslation('emoji');
  const frequent = useFrequentEmoji();
  const [opened, setOpened] = useState(false);
  const [category, setCategory] = useState<EmojiCategory>(
    frequent.length > 0 ? 'frequent' : 'gestures',
  );

  // The popover closes on Escape only with the focus inside it; after a pick the focus is back
  // in the composer (and on the button after opening), so listen on the window.
  useWindowEvent('keydown', (e) => {
    if (opened && e.key === 'Escape' && !e.isComposing) setOpened(false);
  });

  const pick = (emoji: string) => {
    rememberEmoji(emoji);
    onPick(emoji);
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="top-start" shadow="md" width={360}>
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          size="lg"
          disabled={disabled}
          onClick={() => setOpened((o) => !o)}
          aria-label={t('open')}
          title={t('open')}
          data-testid="emoji-open"
        >
          <span aria-hidden style={{ fontSize: 18 }}>
            😊
          </span>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={6} data-testid="emoji-picker">
        <Tabs
          value={category}
          onChange={(v) => v && setCategory(v as EmojiCategory)}
          variant="pills"
          radius="sm"
        >
          <Tabs.List mb={6}>
            {EMOJI_CATEGORIES.map((c) => (
              <Tabs.Tab key={c} value={c} px={6} data-testid={`emoji-category-${c}`}>
                <Text size="xs">{t(`category.${c}`)}</Text>
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        <EmojiGrid
          list={category === 'frequent' ? frequent : EMOJI[category]}
          empty={t('frequentEmpty')}
          label={t(`category.${category}`)}
          onPick={pick}
        />
      </Popover.Dropdown>
    </Popover>
  );
}

function EmojiGrid(props: {
  list: readonly string[];
  empty: string;
  label: string;
  onPick: (emoji: string) => void;
}) {
  if (props.list.length === 0) {
    return (
      <Text size="sm" c="dimmed" ta="center" py="md" data-testid="emoji-empty">
        {props.empty}
      </Text>
    );
  }
  return (
    <SimpleGrid
      cols={8}
      spacing={2}
      verticalSpacing={2}
      className={classes.grid}
      role="group"
      aria-label={props.label}
      data-testid="emoji-grid"
    >
      {props.list.map((emoji) => (
        <UnstyledButton
          key={emoji}
          className={classes.item}
          onClick={() => props.onPick(emoji)}
          aria-label={emoji}
          data-testid="emoji-item"
          data-emoji={emoji}
        >
          {emoji}
        </UnstyledButton>
      ))}
    </SimpleGrid>
  );
}
