import '../../../components/mantine-console-styles';
import { useState } from 'react';
import { Button, Center, Drawer, Group, Loader, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { Virtuoso } from 'react-virtuoso';
import { useTranslation } from 'react-i18next';
import type { QuickReply } from '@parley/protocol';
import { ConfirmModal } from '../../../components/confirm-modal';
import { useConsole } from '../../../stores/console.store';
import { useQuickReplies } from '../hooks/use-quick-replies';
import { useSendMaterial } from '../hooks/use-send-material';
import { filterQuickReplies } from '../quick-reply-filter';
import { QuickReplyForm } from './quick-reply-form';
import { QuickReplyItem } from './quick-reply-item';

type Kind = QuickReply['kind'];
const KINDS: Kind[] = ['text', 'image', 'audio'];

interface Props {
  onClose: () => void;
  onInsert: (text: string) => void;
}

/** Quick replies and materials by kind: search, create, edit, delete, insert or send at once. */
export function QuickReplyPanel({ onClose, onInsert }: Props) {
  const { t } = useTranslation('quickReplies');
  const user = useConsole((s) => s.selectedUser);
  const blocked = useConsole((s) => s.selectedGroup?.disabled ?? false) || !!user?.blocked;
  const { list, isPending, save } = useQuickReplies();
  const sendMaterial = useSendMaterial();
  const [kind, setKind] = useState<Kind>('text');
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<QuickReply | 'new' | null>(null);
  const [deleting, setDeleting] = useState<QuickReply | null>(null);
  const [busy, setBusy] = useState(false);
  const shown = filterQuickReplies(list, search, kind);

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await save({ type: 'del', id: deleting.id });
      setDeleting(null);
    } catch {
      // The request layer has shown the error.
    } finally {
      setBusy(false);
    }
  };

  const sendNow = (item: QuickReply) => {
    if (!user) return;
    sendMaterial(user, item);
    onClose();
  };

  return (
    <Drawer opened onClose={onClose} position="right" size={380} title={t('title')}>
      <div data-testid="quick-reply-panel">
        {editing ? (
          <QuickReplyForm
            kind={editing === 'new' ? kind : editing.kind}
            item={editing === 'new' ? null : editing}
            onSave={save}
            onDone={() => setEditing(null)}
          />
        ) : (
          <Stack gap="xs" h="calc(100dvh - 90px)">
            <Tabs value={kind} onChange={(v) => v && setKind(v as Kind)}>
              <Tabs.List grow>
                {KINDS.map((k) => (
                  <Tabs.Tab key={k} value={k} data-testid={`quick-reply-tab-${k}`}>
                    {t(`kind.${k}`)}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
            </Tabs>
            <Group gap="xs" wrap="nowrap">
              <TextInput
                flex={1}
                placeholder={t('search')}
                aria-label={t('search')}
                value={search}
                onChange={(e) => setSearch(e.currentTarget.value)}
                data-testid="quick-reply-search"
              />
              <Button onClick={() => setEditing('new')} data-testid="quick-reply-add">
                {t('add')}
              </Button>
            </Group>
            <div style={{ flex: 1, minHeight: 0 }} data-testid="quick-reply-list">
              {isPending ? (
                <Center h="100%">
                  <Loader size="sm" />
                </Center>
              ) : shown.length === 0 ? (
                <Text c="dimmed" size="sm" ta="center" mt="lg" data-testid="quick-reply-empty">
                  {search ? t('noMatch') : t(`empty.${kind}`)}
                </Text>
              ) : (
                <Virtuoso
                  style={{ height: '100%' }}
                  data={shown}
                  computeItemKey={(_, item) => item.id}
                  itemContent={(_, item) => (
                    <QuickReplyItem
                      item={item}
                      canSend={!!user && !blocked}
                      onInsert={() => onInsert(item.content)}
                      onSend={() => sendNow(item)}
                      onEdit={() => setEditing(item)}
                      onDelete={() => setDeleting(item)}
                    />
                  )}
                />
              )}
            </div>
          </Stack>
        )}
      </div>
      <ConfirmModal
        opened={deleting !== null}
        title={t('deleteTitle')}
        message={deleting ? t('deleteConfirm', { name: deleting.name }) : ''}
        confirmLabel={t('delete')}
        danger
        loading={busy}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      />
    </Drawer>
  );
}
