import { randomBytes } from 'node:crypto';
import { ERROR_CODES, OTHER_MESSAGES, type AdminInfo, type AdminMe } from '@parley/protocol';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { AdminRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { inTransaction } from '../../lib/tx.js';
import { authRepository } from '../auth/auth.repository.js';
import { hashToken } from '../auth/auth.service.js';
import { checkPassword, checkSeatAccount } from '../seats/seats.service.js';
import { adminRepository } from './admin.repository.js';
import { AuditService, type Actor } from './audit.service.js';

/** The administrator a request acts for. */
export interface AuthAdmin {
  adminId: number;
  account: string;
  tokenHash: string;
  expiresAt: number;
  createdAt: number;
}

/**
 * Administrators' logins: their own accounts and tokens (admin_tokens), so a seat's token is
 * unknown here and an admin token unknown to the seats' AuthService, both answering 400002.
 * Password hashing, the throttle and the token lifetime are the seats' (config).
 */
export class AdminAuthService {
  private readonly revokedListeners = new Set<
    (adminId: number, tokenHash: string | null) => void
  >();

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly audit: AuditService,
  ) {}

  /** Called after admin logins end (the admin push channel closes their sockets). */
  onRevoked(listener: (adminId: number, tokenHash: string | null) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  /** As the seats' login: throttled per account and per address before the password is checked. */
  async login(accountInput: string, password: string, ip = 'unknown'): Promise<AdminInfo> {
    const account = accountInput.trim();
    const now = Date.now();
    const windowStart = now - this.config.loginWindowSeconds * 1000;
    const accountKey = `admin:${account}`;
    const ipKey = `ip:${ip}`;
    const byAccount = await authRepository.takeAttempt(this.db, accountKey, now, windowStart);
    const byIp = await authRepository.takeAttempt(this.db, ipKey, now, windowStart);
    if (byAccount > this.config.loginMaxFailures || byIp > this.config.loginMaxFailuresPerIp) {
      throw new AppError(ERROR_CODES.OPERATION_LIMIT);
    }
    const admin = await adminRepository.findByAccount(this.db, account);
    if (!admin) {
      await authRepository.pruneAttempts(this.db, windowStart);
      throw new AppError(ERROR_CODES.USER_NOT_FOUND);
    }
    if (!(await verifyPassword(admin.password_hash, password))) {
      await authRepository.pruneAttempts(this.db, windowStart);
      throw new AppError(ERROR_CODES.PASSWORD_ERROR);
    }
    await authRepository.clearAttempts(this.db, accountKey);
    await authRepository.giveBack(this.db, ipKey);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = now + Math.round(this.config.tokenTtlHours * 3600_000);
    await adminRepository.insertToken(this.db, {
      token_hash: hashToken(token),
      admin_id: admin.id,
      created_at: now,
      expires_at: expiresAt,
    });
    return { token, admin_id: admin.id, account: admin.account, expires_at: expiresAt };
  }

  async logout(admin: AuthAdmin, allDevices: boolean): Promise<{ revoked: number }> {
    const now = Date.now();
    const revoked = allDevices
      ? await adminRepository.revokeAdminTokens(this.db, admin.adminId, now)
      : await adminRepository.revokeToken(this.db, admin.tokenHash, now);
    const hash = allDevices ? null : admin.tokenHash;
    this.revokedListeners.forEach((listener) => listener(admin.adminId, hash));
    return { revoked };
  }

  me(admin: AuthAdmin): AdminMe {
    return {
      admin_id: admin.adminId,
      account: admin.account,
      created_at: admin.createdAt,
      expires_at: admin.expiresAt,
    };
  }

  /** From the Authorization header: a raw token or `Bearer <token>`; else 400002. */
  async authenticateHeader(header: string | undefined): Promise<AuthAdmin> {
    const raw = (header ?? '').trim();
    const token = raw.replace(/^Bearer(\s+|$)/i, '').trim();
    if (!token) throw new AppError(ERROR_CODES.TOKEN_EXPIRED, OTHER_MESSAGES.missingAuth);
    return this.authenticate(token);
  }

  /** Unknown (a seat's token included), expired and revoked tokens: 400002. */
  async authenticate(token: string): Promise<AuthAdmin> {
    if (token.length > 256) throw new AppError(ERROR_CODES.TOKEN_EXPIRED);
    const tokenHash = hashToken(token);
    const row = await adminRepository.findToken(this.db, tokenHash);
    if (!row || row.revoked_at !== null || Number(row.expires_at) <= Date.now()) {
      throw new AppError(ERROR_CODES.TOKEN_EXPIRED);
    }
    return {
      adminId: row.admin_id,
      account: row.account,
      tokenHash,
      expiresAt: Number(row.expires_at),
      createdAt: Number(row.created_at),
    };
  }

  async stillValid(tokenHashes: string[]): Promise<Set<string>> {
    if (tokenHashes.length === 0) return new Set();
    const rows = await adminRepository.findValidHashes(this.db, tokenHashes, Date.now());
    return new Set(rows.map((r) => r.token_hash));
  }

  /** A new administrator (CLI): same account and password rules as seats. */
  create(input: { account: string; password: string }, actor: Actor): Promise<AdminRow> {
    return createAdminAccount(this.db, this.audit, input, actor);
  }

  /** A new password; the administrator's logins end. */
  async resetPassword(account: string, password: string, actor: Actor): Promise<AdminRow> {
    const admin = await adminRepository.findByAccount(this.db, account.trim());
    if (!admin) throw new AppError(ERROR_CODES.USER_NOT_FOUND);
    const hash = await hashPassword(checkPassword(password));
    await inTransaction(this.db, async (trx) => {
      await adminRepository.setPassword(trx, admin.id, hash);
      await adminRepository.revokeAdminTokens(trx, admin.id, Date.now());
      await authRepository.clearAttempts(trx, `admin:${admin.account}`);
      await this.audit.record(
        trx,
        actor,
        'admin.reset_password',
        'admin',
        admin.id,
        admin.account,
        null,
        null,
      );
    });
    this.revokedListeners.forEach((listener) => listener(admin.id, null));
    return admin;
  }

  list() {
    return adminRepository.list(this.db);
  }

  count() {
    return adminRepository.count(this.db);
  }
}

/** A new administrator (the CLI, the demo workspace): same account and password rules as seats. */
export async function createAdminAccount(
  db: Db,
  audit: AuditService,
  input: { account: string; password: string },
  actor: Actor,
): Promise<AdminRow> {
  const account = checkSeatAccount(input.account);
  const password_hash = await hashPassword(checkPassword(input.password));
  if (await adminRepository.findByAccount(db, account)) {
    throw new AppError(ERROR_CODES.DATA_EXISTS);
  }
  try {
    return await inTransaction(db, async (trx) => {
      const admin = await adminRepository.insert(trx, { account, password_hash, now: Date.now() });
      await audit.record(trx, actor, 'admin.create', 'admin', admin.id, account, null, { account });
      return admin;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(ERROR_CODES.DATA_EXISTS);
    throw err;
  }
}
