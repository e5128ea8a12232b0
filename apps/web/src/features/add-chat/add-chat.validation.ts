import { ERROR_CODES, PHONE_PATTERN } from '@parley/protocol';

export interface AddChatInput {
  sendPhone: string | null;
  receiverPhone: string;
  greeting: string;
  /**
   * A WhatsApp account: the greeting is a template (a new customer has no open window), and
   * `true` once one is chosen with every variable filled.
   */
  template?: boolean;
}

export interface AddChatErrors {
  sendPhone?: 'required';
  /** The spec's invalid-account-format message: the 400005 text. */
  receiverPhone?: typeof ERROR_CODES.INVALID_PHONE_FORMAT;
  greeting?: 'required';
  template?: 'required';
}

/** Client-side rules of the add-chat dialog (spec section 5); empty when it may be sent. */
export function addChatErrors(input: AddChatInput): AddChatErrors {
  const errors: AddChatErrors = {};
  if (!input.sendPhone) errors.sendPhone = 'required';
  if (!PHONE_PATTERN.test(input.receiverPhone.trim())) {
    errors.receiverPhone = ERROR_CODES.INVALID_PHONE_FORMAT;
  }
  if (input.template === undefined) {
    if (!input.greeting.trim()) errors.greeting = 'required';
  } else if (!input.template) {
    errors.template = 'required';
  }
  return errors;
}

/** Server answers that concern the customer number, shown under its field. */
export const NUMBER_CODES: readonly string[] = [
  ERROR_CODES.INVALID_PHONE_FORMAT,
  ERROR_CODES.RENTED_ACCOUNTS_CANNOT_CHAT,
  ERROR_CODES.TARGET_NOT_FOUND,
  ERROR_CODES.CHAT_EXISTS,
];
