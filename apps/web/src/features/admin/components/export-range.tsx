import { useState } from 'react';
import { Button, Group, Popover, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StatsParams } from '../api/stats-queries';
import { ExportButton } from './export-button';

/**
 * Exports over a range the owner chooses (local days of the charts' zone, up to a year), not
 * only the one the charts show: the series and, for every seat, the per-seat table.
 */
export function ExportRange({ params }: { params: StatsParams }) {
  const { t } = useTranslation('admin');
  const [opened, setOpened] = useState(false);
  const [from, setFrom] = useState(params.from);
  const [to, setTo] = useState(params.to);
  const chosen: StatsParams = { ...params, from, to };
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" withArrow trapFocus>
      <Popover.Target>
        <Button
          size="xs"
          variant="default"
          data-testid="export-range"
          onClick={() => {
            // Opened on the range shown, as the starting point.
            if (!opened) {
              setFrom(params.from);
              setTo(params.to);
            }
            setOpened((o) => !o);
          }}
        >
          {t('stats.exportRange')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Group gap="xs" grow>
            <TextInput
              type="date"
              size="xs"
              label={t('stats.from')}
              value={from}
              max={to}
              onChange={(e) => setFrom(e.currentTarget.value)}
              data-testid="export-from"
            />
            <TextInput
              type="date"
              size="xs"
              label={t('stats.to')}
              value={to}
              min={from}
              onChange={(e) => setTo(e.currentTarget.value)}
              data-testid="export-to"
            />
          </Group>
          <Group gap="xs" justify="flex-end">
            <ExportButton kind="series" params={chosen} label={t('stats.exportSeries')} />
            {params.seatId === null && (
              <ExportButton kind="seatTotals" params={chosen} label={t('stats.exportSeatTotals')} />
            )}
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
