import { LineIcon } from '../../../components/line-icon';

/** "Translate" glyph (a character and an A), for the header and the composer. */
export function TranslateIcon({ size = 16 }: { size?: number }) {
  return (
    <LineIcon size={size}>
      <path d="M4 5h8M8 3v2M6 5c0 4 2.5 7 6 8M10 5c-.5 3.5-3 7-6.5 8.5" />
      <path d="m13 21 4-10 4 10M14.5 17.5h5" />
    </LineIcon>
  );
}
