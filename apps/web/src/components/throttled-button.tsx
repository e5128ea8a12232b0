import { Button, type ButtonProps } from '@mantine/core';
import type { ComponentPropsWithoutRef, MouseEvent } from 'react';
import { useClickThrottle } from '../lib/use-click-throttle';

type Props = ButtonProps &
  Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps> & {
    onClick?: (e: MouseEvent<HTMLButtonElement>) => void;
  };

/** An action button that is disabled for 2 s after each click (spec section 9). */
export function ThrottledButton({ onClick, disabled, type, ...rest }: Props) {
  const [run, blocked] = useClickThrottle(onClick);
  return (
    <Button
      {...rest}
      type={type ?? 'button'}
      disabled={disabled || blocked}
      onClick={(e: MouseEvent<HTMLButtonElement>) => run(e)}
    />
  );
}
