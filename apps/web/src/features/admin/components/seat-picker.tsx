import { useState } from 'react';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { rowsOf, seatsQuery } from '../api/admin-queries';

interface Props {
  value: number | null;
  onChange: (seatId: number | null) => void;
  label: string;
  error?: string;
  testId: string;
  /** A seat not to offer (the one already holding the account). */
  exclude?: number | null;
}

/** Picks a seat by typing part of its account or nickname (searched on the server: thousands of seats). */
export function SeatPicker({ value, onChange, label, error, testId, exclude }: Props) {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const [keyword] = useDebouncedValue(search.trim(), 250);
  const query = useInfiniteQuery(seatsQuery({ keyword: keyword || undefined, status: 'active' }));
  const data = rowsOf(query.data)
    .filter((s) => s.seat_id !== exclude)
    .map((s) => ({ value: String(s.seat_id), label: `${s.account} (${s.nickname})` }));
  return (
    <Select
      label={label}
      placeholder={t('accounts.fields.seatSearch')}
      searchable
      clearable
      data={data}
      value={value === null ? null : String(value)}
      onChange={(v) => onChange(v === null ? null : Number(v))}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={query.isPending ? t('loading') : t('accounts.fields.noSeat')}
      error={error}
      data-testid={testId}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
