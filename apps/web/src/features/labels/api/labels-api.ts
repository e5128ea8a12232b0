import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Label, LabelColor } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import { applyLabelsToRows } from '../../sessions/api/session-cache';
import { applyLabelsToQueues } from '../../team/api/team-api';

/** The workspace's labels (the owner's), kept in step by the push's labels.changed. */
export const labelsKey = ['labels'] as const;

const NONE: readonly Label[] = [];

export function useLabels(): readonly Label[] {
  const { data } = useQuery({
    queryKey: labelsKey,
    queryFn: ({ signal }) => callApi('/v1/seat/label/list', {}, { signal, notify: false }),
    select: (d) => d.labels,
    staleTime: Infinity,
  });
  return data ?? NONE;
}

/** Sets the whole set of a chat's labels; the row follows by the push's session.updated. */
export function setChatLabels(sessionId: number, labelIds: number[]) {
  return callApi('/v1/seat/label/set', { session_id: sessionId, label_ids: labelIds });
}

/**
 * The labels as the owner left them (labels.changed): the list, and each cached row's by id (the
 * chat lists' and the Queue's).
 */
export function applyLabelsChanged(qc: QueryClient, labels: Label[]): void {
  qc.setQueryData(labelsKey, { labels });
  applyLabelsToRows(qc, (current) => relabel(current, labels));
  applyLabelsToQueues(qc, (current) => relabel(current, labels));
}

/** A row's labels after the owner's change: renamed and recoloured by id, deleted ones gone. */
export function relabel(current: readonly Label[], labels: readonly Label[]): Label[] {
  const byId = new Map(labels.map((l) => [l.label_id, l]));
  return current.flatMap((l) => {
    const now = byId.get(l.label_id);
    return now ? [now] : [];
  });
}

/** Mantine's shade of each palette colour (the palette is the protocol's: LABEL_COLORS). */
export const LABEL_SHADES: Record<LabelColor, string> = {
  gray: 'gray',
  red: 'red',
  orange: 'orange',
  yellow: 'yellow',
  green: 'green',
  teal: 'teal',
  blue: 'blue',
  violet: 'violet',
  pink: 'pink',
};
