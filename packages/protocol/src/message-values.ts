/**
 * A message's kinds and directions as plain values, the schemas' (entities.ts) source: a
 * client checks what it stored with them without loading zod (the console's first screen,
 * issue 37).
 */
export const MESSAGE_TYPES = ['text', 'image', 'audio', 'video', 'file'] as const;
export const MESSAGE_DIRECTIONS = ['in', 'out'] as const;
