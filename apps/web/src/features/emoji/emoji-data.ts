/** The picker's categories (spec section 2), in order; `frequent` is learned, not listed. */
export const EMOJI_CATEGORIES = [
  'frequent',
  'gestures',
  'hearts',
  'nature',
  'food',
  'festivals',
  'weather',
] as const;
export type EmojiCategory = (typeof EMOJI_CATEGORIES)[number];

/**
 * Hand-picked lists: the emoji operators reach for in customer chats, rather than a library
 * of thousands. Each is a single code point or a plain sequence every current system renders.
 */
// prettier-ignore
export const EMOJI: Record<Exclude<EmojiCategory, 'frequent'>, readonly string[]> = {
  gestures: [
    '👍', '👎', '👌', '✌️', '🤞', '🤝', '🙏', '👏', '🙌', '👋', '🤙', '💪',
    '👉', '👈', '👆', '👇', '☝️', '✋', '🤚', '🖐️', '🫶', '🤲', '👐', '✍️',
    '😀', '😃', '😄', '😁', '😊', '🙂', '😉', '😍', '🥰', '😘', '😂', '🤣',
    '😅', '😇', '🤔', '😮', '😢', '😭', '😔', '😎', '🥳', '😴', '🙈', '🤗',
  ],
  hearts: [
    '❤️', '🧡', '💛', '💚', '💙', '💜', '🤎', '🖤', '🤍', '💕', '💞', '💓',
    '💗', '💖', '💘', '💝', '💟', '❣️', '💔', '❤️‍🔥', '💌', '😻', '💋', '🌹',
  ],
  nature: [
    '🌸', '🌼', '🌻', '🌺', '🌷', '🌹', '💐', '🌱', '🌿', '🍀', '🍁', '🍂',
    '🌳', '🌲', '🌴', '🌵', '🌾', '🍄', '🐶', '🐱', '🐰', '🐻', '🐼', '🐨',
    '🦁', '🐯', '🐸', '🐵', '🐦', '🦋', '🐝', '🐞', '🐬', '🐳', '🐠', '🌊',
  ],
  food: [
    '🍎', '🍊', '🍋', '🍌', '🍉', '🍇', '🍓', '🍒', '🍑', '🥭', '🍍', '🥝',
    '🍅', '🥑', '🌽', '🥕', '🍞', '🧀', '🍳', '🍔', '🍟', '🍕', '🌭', '🥪',
    '🌮', '🍜', '🍝', '🍣', '🍱', '🥟', '🍚', '🍰', '🎂', '🍩', '🍪', '🍫',
    '🍬', '🍦', '☕', '🍵', '🧋', '🥤', '🍺', '🍷', '🥂', '🍾',
  ],
  festivals: [
    '🎉', '🎊', '🎈', '🎁', '🎀', '🎂', '🎄', '🎃', '🎆', '🎇', '✨', '🧨',
    '🏮', '🧧', '🎑', '🎐', '🎎', '🪔', '🕎', '🥮', '🐉', '🐲', '🎅', '🤶',
    '⛄', '🦃', '🐣', '🥚', '💐', '🎓', '💍', '👰', '🤵', '🥳', '🪅', '🎶',
  ],
  weather: [
    '☀️', '🌤️', '⛅', '🌥️', '☁️', '🌦️', '🌧️', '⛈️', '🌩️', '🌨️', '❄️', '☃️',
    '🌬️', '💨', '🌪️', '🌫️', '🌈', '☔', '💧', '🌡️', '🔥', '🌙', '⭐', '🌟',
  ],
};
