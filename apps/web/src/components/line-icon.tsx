import type { ReactNode, SVGProps } from 'react';

/**
 * A line icon as inline SVG (no icon font or emoji font needed), in the text's colour:
 * the one frame every icon of the console shares; the shapes are its children.
 */
export function LineIcon({
  size = 20,
  children,
  ...props
}: SVGProps<SVGSVGElement> & { size?: number; children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
      {...props}
    >
      {children}
    </svg>
  );
}
