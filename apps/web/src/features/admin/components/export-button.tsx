import { useState } from 'react';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { downloadExport, type ExportKind } from '../api/admin-export';
import type { StatsParams } from '../api/stats-queries';

type Props = (
  | { kind: 'series'; params: StatsParams }
  | { kind: 'seatTotals'; params: StatsParams }
  | { kind: 'seats'; tzOffsetMin: number }
  | { kind: 'audit'; filters: Record<string, string | number | undefined> }
) & { label?: string };

function queryOf(p: Props): Record<string, string | number | undefined> {
  if (p.kind === 'series' || p.kind === 'seatTotals') {
    return {
      time_zone: p.params.timeZone,
      from: p.params.from,
      to: p.params.to,
      seat_id: p.kind === 'series' ? (p.params.seatId ?? undefined) : undefined,
    };
  }
  if (p.kind === 'seats') return { tz_offset_min: p.tzOffsetMin };
  return p.filters;
}

/** Saves the CSV of what is shown (the range or filters on screen), or of a chosen range. */
export function ExportButton(props: Props) {
  const { t } = useTranslation('admin');
  const [busy, setBusy] = useState(false);
  const kind: ExportKind = props.kind;
  return (
    <Button
      size="xs"
      variant="default"
      loading={busy}
      data-testid={`export-${kind}`}
      onClick={() => {
        setBusy(true);
        downloadExport(kind, queryOf(props))
          .catch((err: Error) => notifications.show({ color: 'red', message: err.message }))
          .finally(() => setBusy(false));
      }}
    >
      {props.label ?? t('stats.exportCsv')}
    </Button>
  );
}
