import '../components/mantine-console-styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../lib/query-client';
import { SandboxPage } from '../features/sandbox/components/sandbox-page';

/** /sandbox with the server-data layer it needs (loaded with the page, not at start). */
export function SandboxRoute() {
  return (
    <QueryClientProvider client={queryClient}>
      <SandboxPage />
    </QueryClientProvider>
  );
}
