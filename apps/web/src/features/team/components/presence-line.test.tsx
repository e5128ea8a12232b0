import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TeamPresence } from '@parley/protocol';
import { loadStrings, renderWithProviders } from '../../../test/render';
import { applyPresence, teamPresence } from '../api/team-presence';
import { PresenceLine } from './presence-line';

beforeAll(loadStrings);
afterEach(() => teamPresence.set({}));

const word = (patch: Partial<TeamPresence>): TeamPresence => ({
  session_id: 5,
  seat_id: 2,
  nickname: 'Ana',
  state: 'viewing',
  ttl_ms: 25_000,
  at: Date.now(),
  ...patch,
});

describe('who is looking at a chat', () => {
  it('shows "viewing", then "typing", and nothing once the member left', () => {
    renderWithProviders(<PresenceLine sessionId={5} />);
    expect(screen.queryByTestId('team-presence')).toBeNull();
    act(() => applyPresence(word({})));
    expect(screen.getByTestId('team-presence').textContent).toBe('Ana is viewing');
    act(() => applyPresence(word({ state: 'typing', ttl_ms: 5_000 })));
    expect(screen.getByTestId('team-presence').textContent).toBe('Ana is typing');
    act(() => applyPresence(word({ state: 'left', ttl_ms: 0 })));
    expect(screen.queryByTestId('team-presence')).toBeNull();
  });

  it('names everyone viewing, and only this chat’s lookers', () => {
    renderWithProviders(<PresenceLine sessionId={5} />);
    act(() => {
      applyPresence(word({}));
      applyPresence(word({ seat_id: 3, nickname: 'Bo' }));
      applyPresence(word({ session_id: 6, seat_id: 4, nickname: 'Cy' }));
    });
    expect(screen.getByTestId('team-presence').textContent).toBe('Ana, Bo are viewing');
  });

  it('forgets a member whose time to live ran out (a tab that crashed says nothing)', async () => {
    renderWithProviders(<PresenceLine sessionId={5} />);
    act(() => applyPresence(word({ state: 'typing', ttl_ms: 1_200 })));
    expect(screen.getByTestId('team-presence').textContent).toBe('Ana is typing');
    await waitFor(() => expect(screen.queryByTestId('team-presence')).toBeNull(), {
      timeout: 3_000,
    });
  });

  it('shows a hostile name as text', () => {
    renderWithProviders(<PresenceLine sessionId={5} />);
    act(() => applyPresence(word({ nickname: '<img src=x onerror=alert(1)>' })));
    expect(screen.getByTestId('team-presence').textContent).toBe(
      '<img src=x onerror=alert(1)> is viewing',
    );
    expect(document.querySelector('img')).toBeNull();
  });
});
