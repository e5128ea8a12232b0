import type { SVGProps } from 'react';
import { LineIcon } from '../line-icon';

/**
 * The few line icons of the media features, as inline SVG (no icon font or emoji font
 * needed). Paths from Tabler Icons (MIT).
 */
function Icon({ paths, ...props }: SVGProps<SVGSVGElement> & { paths: string[] }) {
  return (
    <LineIcon {...props}>
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </LineIcon>
  );
}

type Props = SVGProps<SVGSVGElement>;

export const PaperclipIcon = (p: Props) => (
  <Icon
    {...p}
    paths={[
      'M15 7l-6.5 6.5a1.5 1.5 0 0 0 3 3l6.5 -6.5a3 3 0 0 0 -6 -6l-6.5 6.5a4.5 4.5 0 0 0 9 9l6.5 -6.5',
    ]}
  />
);

export const MicIcon = (p: Props) => (
  <Icon
    {...p}
    paths={[
      'M9 5a3 3 0 0 1 3 -3h0a3 3 0 0 1 3 3v5a3 3 0 0 1 -3 3h0a3 3 0 0 1 -3 -3z',
      'M5 10a7 7 0 0 0 14 0',
      'M8 21l8 0',
      'M12 17l0 4',
    ]}
  />
);

export const FileIcon = (p: Props) => (
  <Icon
    {...p}
    paths={[
      'M14 3v4a1 1 0 0 0 1 1h4',
      'M17 21h-10a2 2 0 0 1 -2 -2v-14a2 2 0 0 1 2 -2h7l5 5v11a2 2 0 0 1 -2 2z',
    ]}
  />
);

export const MovieIcon = (p: Props) => (
  <Icon
    {...p}
    paths={[
      'M4 6a2 2 0 0 1 2 -2h12a2 2 0 0 1 2 2v12a2 2 0 0 1 -2 2h-12a2 2 0 0 1 -2 -2z',
      'M8 4l0 16',
      'M16 4l0 16',
      'M4 8l4 0',
      'M4 16l4 0',
      'M4 12l16 0',
      'M16 8l4 0',
      'M16 16l4 0',
    ]}
  />
);

export const PlayIcon = (p: Props) => (
  <Icon {...p} paths={['M7 4v16l13 -8z']} fill="currentColor" />
);

export const PauseIcon = (p: Props) => (
  <Icon
    {...p}
    paths={[
      'M6 5m0 1a1 1 0 0 1 1 -1h2a1 1 0 0 1 1 1v12a1 1 0 0 1 -1 1h-2a1 1 0 0 1 -1 -1z',
      'M14 5m0 1a1 1 0 0 1 1 -1h2a1 1 0 0 1 1 1v12a1 1 0 0 1 -1 1h-2a1 1 0 0 1 -1 -1z',
    ]}
    fill="currentColor"
  />
);
