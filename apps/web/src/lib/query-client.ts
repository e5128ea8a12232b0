import { QueryClient } from '@tanstack/react-query';
import { onLogout } from './login-session';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0 },
    mutations: { retry: false },
  },
});

// The next operator starts from nothing. Registered here, not at start: the screens without
// server data (login, ban page) do not load TanStack Query at all.
onLogout(() => queryClient.clear());
