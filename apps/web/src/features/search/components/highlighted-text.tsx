import { Mark } from '@mantine/core';
import { splitHighlight } from '../highlight';

/** The text with each occurrence of the searched word marked. */
export function HighlightedText({ text, word }: { text: string; word: string }) {
  return (
    <>
      {splitHighlight(text, word).map((part, i) =>
        part.hit ? (
          <Mark key={i} data-testid="message-search-mark">
            {part.text}
          </Mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
