import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  CHANNELS,
  CHANNEL_NAMES,
  CREDENTIAL_CHANNEL_NAMES,
  DEFAULT_CHANNEL,
  adminAccountsSetChannelRequest,
  ERROR_CODES,
  PHONE_PATTERN,
  PLAIN_CHANNEL_NAMES,
  mediaKind,
  type ChannelName,
  type MediaKind,
  type PlainChannelName,
} from '@parley/protocol';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Db } from '../db/database.js';
import {
  loadDemo,
  DEMO_ACCOUNT,
  DEMO_ADMIN_ACCOUNT,
  DEMO_ADMIN_PASSWORD,
  DEMO_PASSWORD,
} from '../demo/demo.js';
import { CLI_ACTOR } from '../modules/admin/audit.service.js';
import { AppError, invalidField } from '../lib/app-error.js';
import { backup, BackupError, restore } from '../backup/backup.js';
import { RedisFanOut } from '../realtime/fan-out.js';
import { RecordingEventBus } from '../realtime/recording-event-bus.js';
import { createServices, type Services } from '../services.js';
import { CHANNEL_MODULES } from '../channels/registry.js';
import { UsageError, parseArgs, positionals, required, type CliIo } from '../lib/cli-args.js';

export type { CliIo };

export const EXIT = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  NOT_FOUND: 3,
  EXISTS: 4,
  INVALID: 5,
} as const;

const CHANNEL_LIST = CHANNEL_NAMES.map((c) => (c === DEFAULT_CHANNEL ? `${c} (default)` : c)).join(
  ', ',
);
/** Each channel's credential fields, as the CLI takes them (`--<field> <value>`): CHANNELS. */
const credentialFields = (channel: string): string[] =>
  (CREDENTIAL_CHANNEL_NAMES as readonly string[]).includes(channel)
    ? Object.keys(CHANNELS[channel as (typeof CREDENTIAL_CHANNEL_NAMES)[number]].credentials.shape)
    : [];
const ALL_CREDENTIAL_FIELDS = [...new Set(CHANNEL_NAMES.flatMap(credentialFields))];
const CREDENTIAL_HELP = CREDENTIAL_CHANNEL_NAMES.map(
  (c) =>
    `  account:channel <phone> ${c} ${credentialFields(c)
      .map((f) => `--${f} <v>`)
      .join(' ')}\n${''.padEnd(58)}bind it with its credentials (checked first)\n`,
).join('');
const CHANNEL_HELP = CHANNEL_MODULES.map((m) => (m.cli ? `${m.cli.help}\n\n` : '')).join('');

export const HELP = `Parley admin CLI

Usage: parley <command> [arguments] [options]
       (from the repo root: npm run parley -- <command> ...)

Administrators (the admin console; every change below is in its audit log as "cli"):
  admin:create <account> --password <p>                   create an administrator
  admin:reset-password <account> --password <p>           set a new password; ends its logins
  admin:list                                              list administrators

Seats (operators):
  seat:create <account> --password <p> [--nickname <n>]   create a seat and its built-in groups
  seat:rename <account> --nickname <n>                    change a seat's nickname
  seat:freeze <account>                                   block logins; revokes its tokens
  seat:unfreeze <account>                                 allow logins again
  seat:reset-password <account> --password <p>            set a new password; revokes its tokens
  seat:list                                               list seats

Phone accounts (send_phone):
  account:add <phone> [--label <l>] [--channel <c>]      register a phone account; channel:
                                                          ${CHANNEL_LIST}
  account:assign <phone> <seat-account>                   assign it (and its chats) to a seat
  account:label <phone> --label <l>                       change its label
  account:channel <phone> ${PLAIN_CHANNEL_NAMES.join('|').padEnd(31)} its channel (forgets another's credentials)
${CREDENTIAL_HELP}  account:list                                            list phone accounts

${CHANNEL_HELP}Customers (simulated; the platform bridge does this for real):
  chat:receive <account-phone> <customer-phone> <text>     a customer's text message to an account
  chat:receive <account-phone> <customer-phone> [caption] --file <path> [--kind image|audio|video|file]
                                                          a customer sends a file (checked like an
                                                          upload; kind by its bytes when not given)

Backup (docs/deploy.md; safe while the server runs):
  backup <dir> [--media-only]                             a consistent copy of the SQLite database
                                                          and the media files it refers to, with a
                                                          manifest (on PostgreSQL: prints how to
                                                          pg_dump; --media-only copies the media)
  restore <dir> [--force]                                 bring a backup back into an empty data
                                                          directory (checksums verified first;
                                                          --force overwrites: stop the server)

Demo:
  demo:load                                               load the demo workspace (${DEMO_ACCOUNT} / ${DEMO_PASSWORD};
                                                          administrator ${DEMO_ADMIN_ACCOUNT} / ${DEMO_ADMIN_PASSWORD})

Uses the server's environment: PARLEY_DATA_DIR (default ./data) or DATABASE_URL.
Exit status: 0 ok, 1 unexpected error, 2 usage error, 3 not found, 4 already exists,
5 invalid value.`;

function isChannel(value: string): value is ChannelName {
  return (CHANNEL_NAMES as readonly string[]).includes(value);
}
function isPlainChannel(value: string): value is PlainChannelName {
  return (PLAIN_CHANNEL_NAMES as readonly string[]).includes(value);
}

type Command = (args: string[], s: Services, io: CliIo, db: Db) => Promise<void>;

/** Each channel's own commands (its module's `cli`), beside the ones below. */
const CHANNEL_COMMANDS: Record<string, Command> = Object.fromEntries(
  CHANNEL_MODULES.flatMap((m) =>
    Object.entries(m.cli?.commands ?? {}).map(([name, run]): [string, Command] => [
      name,
      (args, s, io) => run(args, s as never, io),
    ]),
  ),
);

const COMMANDS: Record<string, Command> = {
  ...CHANNEL_COMMANDS,
  'admin:create': async (args, s, io) => {
    const usage = 'admin:create <account> --password <p>';
    const p = parseArgs(args, ['password']);
    const [account] = positionals(p, 1, usage);
    const admin = await s.adminAuth.create(
      { account: account!, password: required(p, 'password', usage) },
      CLI_ACTOR,
    );
    io.out(`Created administrator ${admin.account} (id ${admin.id})`);
  },
  'admin:reset-password': async (args, s, io) => {
    const usage = 'admin:reset-password <account> --password <p>';
    const p = parseArgs(args, ['password']);
    const [account] = positionals(p, 1, usage);
    const admin = await s.adminAuth.resetPassword(
      account!,
      required(p, 'password', usage),
      CLI_ACTOR,
    );
    io.out(`Reset the password of administrator ${admin.account}; its sessions were signed out`);
  },
  'admin:list': async (args, s, io) => {
    positionals(parseArgs(args, []), 0, 'admin:list');
    const rows = await s.adminAuth.list();
    if (!rows.length) return io.out('No administrators.');
    io.out('ID\tACCOUNT\tCREATED');
    for (const r of rows) {
      io.out(`${r.id}\t${r.account}\t${new Date(Number(r.created_at)).toISOString()}`);
    }
  },
  'seat:rename': async (args, s, io) => {
    const usage = 'seat:rename <account> --nickname <n>';
    const p = parseArgs(args, ['nickname']);
    const [account] = positionals(p, 1, usage);
    const seat = await s.seats.setNickname(account!, required(p, 'nickname', usage));
    io.out(`Renamed seat ${seat.account} to "${seat.nickname}"`);
  },
  'account:label': async (args, s, io) => {
    const usage = 'account:label <phone> --label <l>';
    const p = parseArgs(args, ['label']);
    const [phone] = positionals(p, 1, usage);
    const account = await s.accounts.setLabel(phone!, required(p, 'label', usage));
    io.out(`Labelled ${account.send_phone} "${account.label}"`);
  },
  'account:channel': async (args, s, io) => {
    const usage = `account:channel <phone> <channel> [--<credential> <value> ...] (channel: ${CHANNEL_NAMES.join('|')})`;
    const p = parseArgs(args, ALL_CREDENTIAL_FIELDS);
    const [phone, channel] = positionals(p, 2, usage);
    if (isPlainChannel(channel!)) {
      if (p.options.size > 0) throw new UsageError(`${channel} takes no credentials`);
      const account = await s.accounts.setPlainChannel(phone!, channel);
      return io.out(`Set the channel of ${account.send_phone} to ${channel}`);
    }
    if (!isChannel(channel!)) throw new UsageError(`usage: parley ${usage}`);
    // A channel with credentials: its fields as the admin console's setChannel takes them,
    // checked by the same schema (the protocol's CHANNELS), then by the channel itself.
    const fields = credentialFields(channel);
    const unknown = [...p.options.keys()].filter((f) => !fields.includes(f));
    if (unknown.length > 0) throw new UsageError(`${channel} takes --${fields.join(', --')}`);
    for (const f of fields) required(p, f, `account:channel <phone> ${channel} --${f} <v>`);
    const account = await s.accounts.require(phone!);
    const input = adminAccountsSetChannelRequest.safeParse({
      account_id: account.id,
      channel,
      ...Object.fromEntries(p.options),
    });
    if (!input.success) {
      const issue = input.error.issues[0]!;
      throw invalidField(String(issue.path[0] ?? channel), issue.message);
    }
    await s.accounts.setChannel(account.id, input.data, CLI_ACTOR);
    io.out(`Bound ${account.send_phone} to ${channel}`);
  },
  'seat:create': async (args, s, io) => {
    const usage = 'seat:create <account> --password <p> [--nickname <n>]';
    const p = parseArgs(args, ['password', 'nickname']);
    const [account] = positionals(p, 1, usage);
    const seat = await s.seats.create({
      account: account!,
      password: required(p, 'password', usage),
      nickname: p.options.get('nickname'),
    });
    io.out(`Created seat ${seat.account} (id ${seat.id}, nickname "${seat.nickname}")`);
  },
  'seat:freeze': async (args, s, io) => {
    const [account] = positionals(parseArgs(args, []), 1, 'seat:freeze <account>');
    const seat = await s.seats.setFrozen(account!, true);
    io.out(`Froze seat ${seat.account}; its sessions were signed out`);
  },
  'seat:unfreeze': async (args, s, io) => {
    const [account] = positionals(parseArgs(args, []), 1, 'seat:unfreeze <account>');
    const seat = await s.seats.setFrozen(account!, false);
    io.out(`Unfroze seat ${seat.account}`);
  },
  'seat:reset-password': async (args, s, io) => {
    const usage = 'seat:reset-password <account> --password <p>';
    const p = parseArgs(args, ['password']);
    const [account] = positionals(p, 1, usage);
    const seat = await s.seats.resetPassword(account!, required(p, 'password', usage));
    io.out(`Reset the password of ${seat.account}; its sessions were signed out`);
  },
  'seat:list': async (args, s, io) => {
    positionals(parseArgs(args, []), 0, 'seat:list');
    const rows = await s.seats.list();
    if (!rows.length) return io.out('No seats.');
    io.out('ID\tACCOUNT\tNICKNAME\tSTATUS\tPHONE ACCOUNTS');
    for (const r of rows) {
      io.out(
        `${r.id}\t${r.account}\t${r.nickname}\t${r.frozen ? 'frozen' : 'active'}\t${Number(r.accounts)}`,
      );
    }
  },
  'account:add': async (args, s, io) => {
    const usage = `account:add <phone> [--label <l>] [--channel ${CHANNEL_NAMES.join('|')}]`;
    const p = parseArgs(args, ['label', 'channel']);
    const [phone] = positionals(p, 1, usage);
    const channel = p.options.get('channel') ?? DEFAULT_CHANNEL;
    if (!isChannel(channel)) throw new UsageError(`usage: parley ${usage}`);
    const account = await s.accounts.add({ phone: phone!, label: p.options.get('label'), channel });
    io.out(
      `Registered phone account ${account.send_phone}${channel === DEFAULT_CHANNEL ? '' : ` (${channel})`}`,
    );
  },
  'account:assign': async (args, s, io) => {
    const [phone, seat] = positionals(
      parseArgs(args, []),
      2,
      'account:assign <phone> <seat-account>',
    );
    const { moved } = await s.accounts.assign(phone!, seat!);
    io.out(`Assigned ${phone!.trim()} to ${seat!.trim()}${moved ? ` (${moved} chats moved)` : ''}`);
  },
  'account:list': async (args, s, io) => {
    positionals(parseArgs(args, []), 0, 'account:list');
    const rows = await s.accounts.list();
    if (!rows.length) return io.out('No phone accounts.');
    io.out('PHONE\tLABEL\tCHANNEL\tSEAT');
    for (const r of rows) {
      io.out(`${r.send_phone}\t${r.label}\t${r.channel}\t${r.seat_account ?? '-'}`);
    }
  },
  'chat:receive': async (args, s, io) => {
    const usage =
      'chat:receive <account-phone> <customer-phone> <text> | [caption] --file <path> [--kind <k>]';
    const p = parseArgs(args, ['file', 'kind']);
    const file = p.options.get('file');
    const kind = p.options.get('kind');
    const counts = file === undefined ? [3] : [2, 3];
    if (!counts.includes(p.positional.length)) throw new UsageError(`usage: parley ${usage}`);
    const [account = '', customer = '', text = ''] = p.positional;
    if (!PHONE_PATTERN.test(customer.trim())) throw new AppError(ERROR_CODES.INVALID_PHONE_FORMAT);
    if (kind !== undefined && !mediaKind.safeParse(kind).success) {
      throw new UsageError('--kind must be image, audio, video or file');
    }
    if (file === undefined && !text.trim()) throw new UsageError(`usage: parley ${usage}`);
    if (file !== undefined && !existsSync(file)) throw new UsageError(`no such file: ${file}`);
    const message = {
      sendPhone: account.trim(),
      receiverPhone: customer.trim(),
      content: text,
    };
    const result =
      file === undefined
        ? await s.messages.receive(message)
        : await s.messages.receiveFile({
            ...message,
            filePath: path.resolve(file),
            kind: kind as MediaKind | undefined,
          });
    if ('blocked' in result) {
      return io.out(`Dropped: ${customer.trim()} is blocked on ${account.trim()}`);
    }
    const media = result.message.media;
    io.out(
      `Received message ${result.message.msg_id} in chat ${result.sessionId}` +
        (media ? ` (${result.message.type} ${media.media_id}, ${media.mime})` : ''),
    );
  },
  'demo:load': async (args, _s, io, db) => {
    positionals(parseArgs(args, []), 0, 'demo:load');
    const result = await loadDemo(db);
    io.out(
      result.loaded
        ? `Demo workspace loaded (${result.sessions} chats, ${result.messages} messages): log in as ${DEMO_ACCOUNT} / ${DEMO_PASSWORD}`
        : `The demo workspace is already loaded: log in as ${DEMO_ACCOUNT} / ${DEMO_PASSWORD}`,
    );
    io.out(`Demo administrator (admin console): ${DEMO_ADMIN_ACCOUNT} / ${DEMO_ADMIN_PASSWORD}`);
  },
};

function exitCodeOf(err: AppError): number {
  switch (err.code) {
    case ERROR_CODES.USER_NOT_FOUND:
    case ERROR_CODES.DATA_NOT_FOUND:
      return EXIT.NOT_FOUND;
    case ERROR_CODES.DATA_EXISTS:
    case ERROR_CODES.TG_USER_EXISTS:
      return EXIT.EXISTS;
    case ERROR_CODES.PARAMETER_ERROR:
    case ERROR_CODES.INVALID_PHONE_FORMAT:
      return EXIT.INVALID;
    default:
      return EXIT.ERROR;
  }
}

function describe(err: AppError): string {
  const fields = (err.data as { fields?: { path: string; message: string }[] } | null)?.fields;
  return fields?.length
    ? `${err.message} (${fields.map((f) => `${f.path}: ${f.message}`).join('; ')})`
    : err.message;
}

/** backup and restore open the files themselves (a restore must not create the database). */
async function runBackup(
  name: 'backup' | 'restore',
  args: string[],
  io: CliIo,
  config: Config,
): Promise<number> {
  const flag = name === 'backup' ? '--media-only' : '--force';
  const rest = args.filter((a) => a !== flag);
  if (rest.length !== 1 || rest[0]!.startsWith('--')) {
    io.err(`usage: parley ${name} <dir> [${flag}]`);
    return EXIT.USAGE;
  }
  try {
    if (name === 'backup') await backup(config, rest[0]!, { mediaOnly: args.includes(flag) }, io);
    else await restore(config, rest[0]!, { force: args.includes(flag) }, io);
    return EXIT.OK;
  } catch (err) {
    io.err(err instanceof BackupError ? err.message : `Unexpected error: ${String(err)}`);
    return EXIT.ERROR;
  }
}

const consoleIo: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) };

/** Runs one CLI command; returns the exit status. */
export async function runCli(
  argv: string[],
  io: CliIo = consoleIo,
  config?: Config,
): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(HELP);
    return name ? EXIT.OK : EXIT.USAGE;
  }
  if ((name === 'backup' || name === 'restore') && !args.includes('--help')) {
    return runBackup(name, args, io, config ?? loadConfig());
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`Unknown command "${name}". Run "parley --help" for the list.`);
    return EXIT.USAGE;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.out(HELP);
    return EXIT.OK;
  }
  const cfg = config ?? loadConfig();
  const database = await openDatabase(cfg);
  // Changes the CLI makes (a customer's message) reach open consoles: recorded in the event
  // log, and announced on Redis when instances share one (else their poll finds them).
  const bus = new RecordingEventBus();
  const fanOut = cfg.realtime.redisUrl
    ? new RedisFanOut(cfg.realtime.redisUrl, { hub: null })
    : null;
  try {
    if (fanOut) {
      // Without Redis the change is still recorded: consoles get it when they next resume.
      await fanOut.start().then(
        () => bus.setNotifier((seatId) => fanOut.notify(seatId)),
        (err: unknown) =>
          io.err(`Warning: Redis unreachable, open consoles are not told at once (${String(err)})`),
      );
    }
    await command(args, await createServices(database.db, cfg, undefined, bus), io, database.db);
    return EXIT.OK;
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(err.message);
      return EXIT.USAGE;
    }
    if (err instanceof AppError) {
      io.err(`Error ${err.code}: ${describe(err)}`);
      return exitCodeOf(err);
    }
    io.err(`Unexpected error: ${err instanceof Error ? err.message : String(err)}`);
    return EXIT.ERROR;
  } finally {
    await fanOut?.stop();
    await database.close();
  }
}
