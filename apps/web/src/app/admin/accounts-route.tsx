import { AccountsPage } from '../../features/admin/components/accounts-page';
import { channelView } from '../channels';

/** The accounts screen, handed each channel's view (the admin feature names no channel). */
export function AccountsRoute() {
  return <AccountsPage channelView={channelView} />;
}
