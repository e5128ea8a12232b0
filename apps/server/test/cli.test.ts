import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, CHANNEL_NAMES, CREDENTIAL_CHANNEL_NAMES } from '@parley/protocol';
import { EXIT, HELP, runCli, type CliIo } from '../src/cli/run.js';
import type { Config } from '../src/config.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
let config: Config;

beforeAll(async () => {
  t = await createTestApp();
  config = t.config;
});
afterAll(async () => t?.close());

/** Runs the CLI against the test database, capturing its output. */
async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const status = await runCli(argv, io, config);
  return { status, out: out.join('\n'), err: err.join('\n') };
}

describe('admin CLI', () => {
  it('prints help', async () => {
    const help = await cli('--help');
    expect(help.status).toBe(EXIT.OK);
    expect(help.out).toBe(HELP);
    for (const cmd of [
      'seat:create',
      'seat:freeze',
      'seat:reset-password',
      'account:assign',
      'demo:load',
    ]) {
      expect(help.out).toContain(cmd);
    }
    expect((await cli()).status).toBe(EXIT.USAGE);
    // A wrong channel is answered with the usage naming every channel of the protocol's table.
    const badChannel = await cli('account:add', '+15550001111', '--channel', 'fax');
    expect(badChannel.status).toBe(EXIT.USAGE);
    for (const channel of CHANNEL_NAMES) expect(badChannel.err).toContain(channel);
    const unknown = await cli('seat:destroy');
    expect(unknown.status).toBe(EXIT.USAGE);
    expect(unknown.err).toMatch(/Unknown command/);
  });

  it('creates a seat with built-in groups that can log in; refuses duplicates and bad input', async () => {
    const created = await cli(
      'seat:create',
      'ops1',
      '--password',
      'secret-pass',
      '--nickname',
      'Ops One',
    );
    expect(created.status).toBe(EXIT.OK);
    expect(created.out).toMatch(/Created seat ops1/);
    expect((await cli('seat:create', 'ops1', '--password', 'secret-pass')).status).toBe(
      EXIT.EXISTS,
    );
    expect((await cli('seat:create', 'ops2', '--password', 'short')).status).toBe(EXIT.INVALID);
    expect((await cli('seat:create', 'ops2')).status).toBe(EXIT.USAGE);
    expect((await cli('seat:create', 'bad account', '--password', 'secret-pass')).status).toBe(
      EXIT.INVALID,
    );
    expect((await cli('seat:create', 'ops3', '--pasword', 'secret-pass')).status).toBe(EXIT.USAGE);

    const login = await t.call('/v1/seat/chat/login', { account: 'ops1', password: 'secret-pass' });
    expect(login.code).toBe('000000');
    expect(login.data.nickname).toBe('Ops One');
    const groups = await t.call('/v1/seat/chat/getGroupList', {}, login.data.token);
    expect(groups.data.group_list.map((g) => g.group_type)).toEqual([
      'ungrouped',
      'tg_link_pushed',
      'blocked',
    ]);
  });

  it('registers and assigns phone accounts', async () => {
    await cli('seat:create', 'ops4', '--password', 'secret-pass');
    expect((await cli('account:add', '+15551230001', '--label', 'Main line')).status).toBe(EXIT.OK);
    expect((await cli('account:add', '+15551230001')).status).toBe(EXIT.EXISTS);
    expect((await cli('account:add', 'not-a-phone')).status).toBe(EXIT.INVALID);
    expect((await cli('account:assign', '+15551230001', 'ops4')).status).toBe(EXIT.OK);
    expect((await cli('account:assign', '+15559999999', 'ops4')).status).toBe(EXIT.NOT_FOUND);
    expect((await cli('account:assign', '+15551230001', 'nobody')).status).toBe(EXIT.NOT_FOUND);
    const list = await cli('account:list');
    expect(list.out).toMatch(/\+15551230001\tMain line\tplatform\tops4/);
    const login = await t.call('/v1/seat/chat/login', { account: 'ops4', password: 'secret-pass' });
    expect(login.data.phone_accounts).toEqual([
      { send_phone: '+15551230001', label: 'Main line', channel: 'platform' },
    ]);
    const seats = await cli('seat:list');
    expect(seats.out).toMatch(/ops4\tops4\tactive\t1/);
  });

  it('freezes, unfreezes and resets passwords, revoking tokens', async () => {
    await cli('seat:create', 'ops5', '--password', 'secret-pass');
    const login = await t.call('/v1/seat/chat/login', { account: 'ops5', password: 'secret-pass' });
    expect((await cli('seat:freeze', 'ops5')).status).toBe(EXIT.OK);
    expect((await cli('seat:list')).out).toMatch(/ops5\tops5\tfrozen/);
    // A frozen seat's token says so (200002), as its login does.
    expect((await t.call('/v1/seat/chat/getGroupList', {}, login.data.token)).code).toBe('200002');
    expect(
      (await t.call('/v1/seat/chat/login', { account: 'ops5', password: 'secret-pass' })).code,
    ).toBe('200002');
    expect((await cli('seat:unfreeze', 'ops5')).status).toBe(EXIT.OK);
    // Unfrozen, the tokens of before the freeze stay ended.
    expect((await t.call('/v1/seat/chat/getGroupList', {}, login.data.token)).code).toBe('400002');
    const again = await t.call('/v1/seat/chat/login', { account: 'ops5', password: 'secret-pass' });
    expect(again.code).toBe('000000');
    expect((await cli('seat:reset-password', 'ops5', '--password', 'new-secret-1')).status).toBe(
      EXIT.OK,
    );
    expect((await t.call('/v1/seat/chat/getGroupList', {}, again.data.token)).code).toBe('400002');
    expect(
      (await t.call('/v1/seat/chat/login', { account: 'ops5', password: 'new-secret-1' })).code,
    ).toBe('000000');
    expect((await cli('seat:freeze', 'ghost')).status).toBe(EXIT.NOT_FOUND);
  });

  it('loads the demo workspace once', async () => {
    const first = await cli('demo:load');
    expect(first.status).toBe(EXIT.OK);
    expect(first.out).toMatch(/Demo workspace loaded .*demo \/ parley-demo/);
    const second = await cli('demo:load');
    expect(second.status).toBe(EXIT.OK);
    expect(second.out).toMatch(/already loaded/);
  });

  it('chat:receive stores a customer message: a new chat in Ungrouped, unread counted', async () => {
    await cli('seat:create', 'recv1', '--password', 'secret-pass');
    await cli('account:add', '+15550177001');
    await cli('account:assign', '+15550177001', 'recv1');
    const first = await cli('chat:receive', '+15550177001', '+4479001001', 'Hola, ¿hay alguien?');
    expect(first.status).toBe(EXIT.OK);
    expect(first.out).toMatch(/Received message \d+ in chat \d+/);
    expect((await cli('chat:receive', '+15550177001', '+4479001001', 'Second')).status).toBe(
      EXIT.OK,
    );

    const login = await t.call('/v1/seat/chat/login', {
      account: 'recv1',
      password: 'secret-pass',
    });
    const token = login.data.token;
    const groups = (await t.call('/v1/seat/chat/getGroupList', {}, token)).data;
    const ungrouped = groups.group_list.find((g) => g.group_type === 'ungrouped')!;
    expect(ungrouped.un_read).toBe(2);
    expect(groups.un_read_count).toBe(2);
    const list = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: ungrouped.group_id },
      token,
    );
    expect(list.data.account_list).toHaveLength(1);
    expect(list.data.account_list[0]).toMatchObject({
      receiver_phone: '+4479001001',
      un_read_count: 2,
      last_message: { direction: 'in', preview: 'Second' },
    });
    const record = await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: '+15550177001', receiver_phone: '+4479001001' },
      token,
    );
    expect(record.data.list.map((m) => [m.direction, m.content])).toEqual([
      ['in', 'Hola, ¿hay alguien?'],
      ['in', 'Second'],
    ]);

    // A blocked chat takes nothing; unknown accounts and bad numbers are refused.
    await t.call(
      '/v1/seat/chat/block',
      { session_id: list.data.account_list[0]!.session_id },
      token,
    );
    const dropped = await cli('chat:receive', '+15550177001', '+4479001001', 'Third');
    expect(dropped.out).toMatch(/Dropped/);
    expect((await cli('chat:receive', '+15550177999', '+4479001001', 'x')).status).toBe(EXIT.ERROR);
    expect((await cli('chat:receive', '+15550177001', 'not-a-number', 'x')).status).toBe(
      EXIT.INVALID,
    );
    expect((await cli('chat:receive', '+15550177001', '+4479001001')).status).toBe(EXIT.USAGE);
  });

  it("binds an account to a channel with credentials by the fields of the protocol's table", async () => {
    const phone = '+4917055017701';
    expect((await cli('account:add', phone)).status).toBe(EXIT.OK);
    // Each channel with credentials is in the help with its fields (CHANNELS' credentials).
    for (const channel of CREDENTIAL_CHANNEL_NAMES) {
      for (const field of Object.keys(CHANNELS[channel].credentials.shape)) {
        expect(HELP).toContain(`account:channel <phone> ${channel} `);
        expect(HELP).toContain(`--${field} <v>`);
      }
    }
    const missing = await cli('account:channel', phone, 'telegram');
    expect(missing.status).toBe(EXIT.USAGE);
    expect(missing.err).toContain('--bot_token');
    const foreign = await cli('account:channel', phone, 'telegram', '--waba_id', '123456');
    expect(foreign.status).toBe(EXIT.USAGE);
    const plainWithField = await cli('account:channel', phone, 'sandbox', '--bot_token', 'x');
    expect(plainWithField.status).toBe(EXIT.USAGE);
    // Refused by the channel's own check (a bot token's shape): 100001 on the field, nothing set.
    const refused = await cli('account:channel', phone, 'telegram', '--bot_token', 'not a token');
    expect(refused.status).toBe(EXIT.INVALID);
    expect(refused.err).toContain('bot_token');
    const badIds = await cli(
      'account:channel',
      phone,
      'whatsapp',
      '--phone_number_id',
      'abc',
      '--waba_id',
      '123456',
      '--access_token',
      'token',
      '--app_secret',
      '0123456789abcdef0123456789abcdef',
    );
    expect(badIds.status).toBe(EXIT.INVALID);
    expect(badIds.err).toContain('phone_number_id');
    expect((await t.services.accounts.require(phone)).channel).toBe('platform');
  });
});
