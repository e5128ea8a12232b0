import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import { readdirSync } from 'node:fs';
// The protocol's one list of channel names (built first, as the docs checks import it).
import { CHANNEL_NAMES } from '@parley/protocol';

/**
 * The web console's layers (docs/ARCHITECTURE.md, "Import rules"): app/ composes features;
 * a feature imports only itself, the shared layer (lib/, components/, stores/, locales/) and
 * the data layer (features/messages, features/sessions/api and hooks); the shared layer imports
 * no feature and not the app.
 */
const WEB = './apps/web/src';
const DATA_LAYER = [
  './messages',
  './sessions/api',
  './sessions/hooks',
  './quick-replies/api',
  './team/api',
  './labels/api',
];
const FEATURES = readdirSync(new URL('apps/web/src/features', import.meta.url));
const webZones = [
  ...FEATURES.map((name) => ({
    target: `${WEB}/features/${name}`,
    from: `${WEB}/features`,
    except: [...new Set([`./${name}`, ...DATA_LAYER])],
    message:
      'A feature imports only itself, the shared layer and the data layer (docs/ARCHITECTURE.md).',
  })),
  ...['lib', 'components', 'stores'].map((layer) => ({
    target: `${WEB}/${layer}`,
    from: [`${WEB}/features`, `${WEB}/app`],
    message: 'The shared layer imports no feature and not the app shell.',
  })),
  {
    // The data layer's own order: sessions' caches import messages' cache, never the reverse.
    target: `${WEB}/features/messages`,
    from: `${WEB}/features`,
    except: ['./messages'],
    message:
      'features/messages is the bottom of the data layer: it imports no other feature (the app hands it what it needs).',
  },
  {
    target: `${WEB}/features`,
    from: `${WEB}/app`,
    message: 'Features do not import the app shell; it hands them what they need.',
  },
];

/**
 * A channel is known by its abilities and its view, never by its name (docs/ARCHITECTURE.md,
 * "How to add a channel"): in the web, only a channel's own folder (features/<name>/) and the
 * registry (app/channels.ts) write a channel's name, as a string or as a property.
 */
const CHANNEL_NAME = `/^(${CHANNEL_NAMES.join('|')})$/`;
/** The selectors of a channel's name written as a string or as a property. */
const namingAChannel = (message) => [
  { selector: `Literal[value=${CHANNEL_NAME}]`, message },
  {
    selector: `TemplateLiteral[expressions.length=0] > TemplateElement[value.cooked=${CHANNEL_NAME}]`,
    message,
  },
  {
    selector: `MemberExpression[computed=false] > Identifier.property[name=${CHANNEL_NAME}]`,
    message,
  },
];
const channelNameRule = [
  'error',
  ...namingAChannel(
    "Only the channel's folder (features/<name>/) and app/channels.ts name a channel: ask its view (lib/channel-view.ts) or the protocol's abilities (docs/ARCHITECTURE.md, 'How to add a channel').",
  ),
];
/**
 * The same on the server: modules, lib, db, realtime and jobs know a channel by the channel
 * contract (its abilities, its ChannelName as data), never by writing its name. Exempt: the
 * channels' folders, the migrations (data written before), and the composition root that
 * mounts them (app.ts, main.ts, services.ts, the configuration and the start banner).
 */
const SERVER_NAMES_A_CHANNEL = namingAChannel(
  "Only channels/ and the composition root name a channel: ask the channel contract's abilities (docs/ARCHITECTURE.md, 'How to add a channel').",
);
const SERVER_CHANNEL_NAME_EXEMPT = [
  'apps/server/src/channels/**',
  'apps/server/src/db/migrations/**',
  'apps/server/src/{app,main,services,config,config-schema,start-banner}.ts',
];

/**
 * The server's layers (docs/ARCHITECTURE.md): routes call services, services hold the rules and
 * call repositories, repositories only query. Nothing imports upwards.
 */
const SERVER = './apps/server/src';
const SERVER_TOP = readdirSync(new URL('apps/server/src', import.meta.url));
const serverZones = [
  {
    target: `${SERVER}/**/*.repository.ts`,
    from: [`${SERVER}/**/*.service.ts`, `${SERVER}/**/*.routes.ts`],
    message: 'A repository only queries: it imports no service and no route.',
  },
  {
    target: `${SERVER}/**/*.service.ts`,
    from: `${SERVER}/**/*.routes.ts`,
    message: 'A service does not import routes; routes call services.',
  },
  // The folders' direction (docs/ARCHITECTURE.md, "The server's folders"): channels and
  // realtime sit on the modules, which know neither; a module reaches them through an
  // interface of its own (DeliveringChannels, ChannelCredentials, CanOpenChat, EventBus).
  {
    target: `${SERVER}/modules`,
    from: [`${SERVER}/channels`, `${SERVER}/realtime`, `${SERVER}/jobs`],
    message: 'A module imports no channel, no realtime and no job: it declares an interface.',
  },
  {
    // A channel's folder is reached only through channels/registry.ts (the list) and the
    // shared contract files: nothing outside channels/ names one channel.
    target: SERVER_TOP.filter((name) => name !== 'channels').map((name) => `${SERVER}/${name}`),
    from: `${SERVER}/channels/*/**`,
    message:
      "Only channels/ names a channel: reach one through channels/registry.ts and the channel contract (docs/ARCHITECTURE.md, 'How to add a channel').",
  },
  {
    target: `${SERVER}/channels`,
    from: [`${SERVER}/realtime`, `${SERVER}/jobs/outbox-worker.ts`],
    message: 'A channel imports modules and lib, not realtime or the outbox worker.',
  },
  {
    target: `${SERVER}/realtime`,
    from: [`${SERVER}/channels`, `${SERVER}/jobs`],
    message: "Realtime carries the modules' events: it imports no channel and no job.",
  },
  {
    target: [`${SERVER}/lib`, `${SERVER}/db`],
    from: [`${SERVER}/modules`, `${SERVER}/channels`, `${SERVER}/realtime`, `${SERVER}/jobs`],
    message: 'lib/ and db/ are the bottom: they import no module, channel, realtime or job.',
  },
];

/** Queries are written in repositories: a service that builds one fails the lint. */
const QUERY_BUILDERS = ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto'];
const BUILDS_A_QUERY = {
  selector: `CallExpression[callee.property.name=/^(${QUERY_BUILDERS.join('|')})$/]`,
  message: 'Queries live in repositories: call one from the service.',
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/data/**',
      '**/.data/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // A channel's configuration fragment adds its variables to ChannelEnv by merging an
    // interface that extends them (channels/channel-config.ts).
    files: ['apps/server/src/channels/*/*.config.ts', 'apps/server/test/fixtures/**/*.config.ts'],
    rules: {
      '@typescript-eslint/no-empty-object-type': [
        'error',
        { allowInterfaces: 'with-single-extends' },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // Import direction: no cycles in either app (and see the web layering below).
  {
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/server/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Parse the project's TypeScript when following imports (otherwise .ts files are skipped).
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.json', '.css'],
          // The server imports its own .ts files by their emitted .js names.
          extensionAlias: { '.js': ['.ts', '.js'] },
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: webZones }],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: serverZones },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: SERVER_CHANNEL_NAME_EXEMPT,
    rules: { 'no-restricted-syntax': ['error', ...SERVER_NAMES_A_CHANNEL] },
  },
  {
    files: ['apps/server/src/**/*.service.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'kysely', importNames: ['sql'], message: 'Queries live in repositories.' },
          ],
          // A service never asks which database it runs on: the database's implementation of
          // a seam (MessageWriter, InboundWriter, ChatListReader) is chosen in services.ts.
          patterns: [
            {
              group: ['**/db/database.js'],
              importNames: ['dialectOf'],
              message:
                'A service never asks which database it runs on: put the difference behind a seam chosen in services.ts.',
            },
          ],
        },
      ],
      'no-restricted-syntax': ['error', BUILDS_A_QUERY],
    },
  },
  {
    // A module's service: both rules (a later block's list replaces an earlier one's).
    files: ['apps/server/src/**/*.service.ts'],
    ignores: SERVER_CHANNEL_NAME_EXEMPT,
    rules: { 'no-restricted-syntax': ['error', BUILDS_A_QUERY, ...SERVER_NAMES_A_CHANNEL] },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: [
      ...CHANNEL_NAMES.map((name) => `apps/web/src/features/${name}/**`),
      'apps/web/src/app/channels.ts',
      // A test pins down what each channel shows, so it names them (with the real map).
      'apps/web/src/**/*.test.{ts,tsx}',
    ],
    rules: { 'no-restricted-syntax': channelNameRule },
  },
);
