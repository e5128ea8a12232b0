import { REMARK_MAX } from '@parley/protocol';

/** A remark is optional (empty clears it) and at most REMARK_MAX characters once trimmed. */
export function remarkError(value: string): 'tooLong' | null {
  return value.trim().length > REMARK_MAX ? 'tooLong' : null;
}

/** A move needs a target group, other than the chat's current one (spec section 5). */
export function moveError(
  target: number | null,
  currentGroupId: number,
): 'groupRequired' | 'sameGroup' | null {
  if (target === null) return 'groupRequired';
  if (target === currentGroupId) return 'sameGroup';
  return null;
}
