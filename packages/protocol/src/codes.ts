/** Error-code catalogue of the spec (section 8) plus Parley's few documented extensions. */
export const SUCCESS_CODE = '000000' as const;

export const ERROR_CODES = {
  PARAMETER_ERROR: '100001',
  VERIFICATION_CODE_ERROR: '100002',
  VERIFICATION_CODE_EXPIRED: '100003',
  VERIFICATION_CODE_STILL_VALID: '100004',
  PASSWORD_ERROR: '100005',
  CODE_EXPIRED: '100006',
  USER_NOT_FOUND: '200001',
  ACCOUNT_FROZEN: '200002',
  INVALID_USER: '200003',
  ORIGINAL_PASSWORD_ERROR: '200004',
  DATA_NOT_FOUND: '400001',
  TOKEN_EXPIRED: '400002',
  PERMISSION_FAILED: '400003',
  INVALID_PHONE_FORMAT: '400005',
  RENTED_ACCOUNTS_CANNOT_CHAT: '400006',
  TARGET_NOT_FOUND: '400007',
  TG_USER_EXISTS: '400008',
  SERVICE_ERROR: '500001',
  DATA_EXISTS: '500002',
  OPERATION_LIMIT: '500003',
  BOUNDARY_OPERATION: '500004',
  SERVER_BUSY: '500005',
  CHAT_EXISTS: '500006',
  // Parley extensions (not in the spec's catalogue); documented in docs/api.md.
  ROUTE_NOT_FOUND: '404001',
  NOT_IMPLEMENTED: '501001',
  /** No configured translation engine translates the asked language pair. */
  TRANSLATION_PAIR_UNSUPPORTED: '422001',
  /** The server has no translation engine configured. */
  TRANSLATION_NOT_CONFIGURED: '501002',
  /** Administrator console: only a failed delivery can be retried. */
  OUTBOX_NOT_RETRYABLE: '409001',
  /** The media store's disk is full (or over quota): nothing was stored. */
  MEDIA_STORAGE_FULL: '507001',
  /** The media store cannot be written (read-only or no permission): nothing was stored. */
  MEDIA_STORAGE_READ_ONLY: '507002',
  /** A Web Push endpoint the server will not send to (not https, not a push service, private). */
  PUSH_ENDPOINT_REFUSED: '422002',
  /** Administrator console: an engine chosen for a language pair is not configured here. */
  TRANSLATION_ENGINE_NOT_CONFIGURED: '422003',
  /** Team accounts: another member took the queued chat first. */
  CHAT_ALREADY_TAKEN: '409002',
  /** Team accounts: a hand-over (or a team's member list) names a seat that is not a member. */
  TEAM_NOT_MEMBER: '409003',
  /** Team accounts: a hand-over to a frozen member. */
  TEAM_SEAT_FROZEN: '409004',
  /**
   * Team accounts: another member replied to this customer less than TEAM_REPLY_CONFIRM_MS ago;
   * sent only once the request says `confirmed` (`data`: who and when, TeamRecentReply).
   */
  TEAM_RECENT_REPLY: '409005',
  /** Labels: another label already has this name (letter case aside). */
  LABEL_NAME_TAKEN: '409006',
} as const;

export type ErrorCodeName = keyof typeof ERROR_CODES;
export type ErrorCode = (typeof ERROR_CODES)[ErrorCodeName];
export type ResponseCode = ErrorCode | typeof SUCCESS_CODE;

/** English message of each code: the server's `msg` and the fallback of the web client. */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  '100001': 'Parameter error',
  '100002': 'Verification code error',
  '100003': 'Verification code expired',
  '100004': 'Verification code still valid, please try again later',
  '100005': 'Password error',
  '100006': 'Code expired',
  '200001': 'User does not exist',
  '200002': 'Cannot login, account is frozen',
  '200003': 'Invalid user, please logout and login again',
  '200004': 'Original password error',
  '400001': 'Data does not exist',
  '400002': 'Token expired',
  '400003': 'Failed to get permissions',
  '400005': 'Invalid phone number format',
  '400006': 'Rented accounts cannot chat with each other on seats',
  '400007': 'Target number not found',
  '400008': 'This TG user already exists in the system as a username or number',
  '500001': 'Service error, please refresh and try again',
  '500002': 'Data already exists',
  '500003': 'Operation count exceeded limit',
  '500004': 'Boundary operation, please logout and login again',
  '500005': 'Server busy',
  '500006': 'Chat with target number exists',
  '404001': 'Interface does not exist',
  '501001': 'Not implemented yet',
  '422001': 'No configured translation engine translates this language pair',
  '501002': 'No translation engine is configured',
  '409001': 'Only a failed delivery can be retried',
  '507001': 'Storage is full, tell your administrator',
  '507002': 'Storage cannot be written, tell your administrator',
  '422002': 'This browser’s push service cannot be used for notifications',
  '422003': 'This translation engine is not configured on this server',
  '409002': 'This chat has already been taken by another member',
  '409003': 'That seat is not a member of this team',
  '409004': 'That seat is frozen and cannot receive chats',
  '409005': 'Another member replied to this customer a moment ago',
  '409006': 'A label with this name already exists',
};

/**
 * The spec's "other messages": texts that are not tied to one code. Keys are stable
 * identifiers used by both sides (the web client translates them under `messages.<key>`).
 */
export const OTHER_MESSAGES = {
  serviceBusyTryLater: 'Service busy please try again later',
  authFailed: 'Authentication failed please login again',
  missingAuth: 'Missing authentication information',
  messageSendFailed: 'Message sending failed',
  translationFailed: 'Translation failed',
  languageListFailed: 'Failed to get language list',
  translationError: 'Translation error',
  audioPlaybackFailed: 'Audio playback failed',
  groupSaveFailed: 'Group save failed',
  appOpenInAnotherTab: 'Application already open in another tab',
  loginExpired: 'Tip: Current login has expired, please login again',
} as const;
export type OtherMessageKey = keyof typeof OTHER_MESSAGES;

export function isSuccessCode(code: unknown): boolean {
  return code === SUCCESS_CODE || code === 200 || code === '200';
}
