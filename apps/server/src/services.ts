import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { AddressBookService } from './modules/address-book/address-book.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { GroupsService } from './modules/groups/groups.service.js';
import { MessagesService } from './modules/messages/messages.service.js';
import { QuickRepliesService } from './modules/quick-replies/quick-replies.service.js';
import { SearchService } from './modules/search/search.service.js';
import { SeatsService } from './modules/seats/seats.service.js';
import { SessionsService } from './modules/sessions/sessions.service.js';

/** Every service, wired once; the HTTP routes and the CLI use the same ones. */
export interface Services {
  auth: AuthService;
  seats: SeatsService;
  accounts: AccountsService;
  groups: GroupsService;
  sessions: SessionsService;
  messages: MessagesService;
  quickReplies: QuickRepliesService;
  search: SearchService;
  addressBook: AddressBookService;
}

export function createServices(db: Db, config: Config): Services {
  const groups = new GroupsService(db);
  return {
    auth: new AuthService(db, config),
    seats: new SeatsService(db),
    accounts: new AccountsService(db),
    groups,
    sessions: new SessionsService(db, groups),
    messages: new MessagesService(db, config),
    quickReplies: new QuickRepliesService(db),
    search: new SearchService(db, config.databaseUrl ? 'pg' : 'sqlite'),
    addressBook: new AddressBookService(db),
  };
}
