import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link } from 'react-router';
import { Spinner } from './spinner';
import './button.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost';
export type ButtonSize = 'md' | 'sm' | 'lg';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** While true the button shows `busyText` with a spinner and cannot be pressed. */
  busy?: boolean;
  busyText?: string;
  icon?: ReactNode;
  block?: boolean;
}

function classes(variant: ButtonVariant, size: ButtonSize, block?: boolean, extra?: string): string {
  return ['btn', `btn--${variant}`, `btn--${size}`, block ? 'btn--block' : '', extra ?? ''].filter(Boolean).join(' ');
}

/** The one button of the app: primary, secondary or ghost, with a busy state. */
export function Button({
  variant = 'primary',
  size = 'md',
  busy,
  busyText,
  icon,
  block,
  className,
  children,
  disabled,
  type,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type ?? 'button'}
      className={classes(variant, size, block, className)}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy ? <Spinner size={16} /> : icon}
      <span>{busy && busyText ? busyText : children}</span>
    </button>
  );
}

interface ButtonLinkProps {
  to: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  icon?: ReactNode;
  block?: boolean;
  children: ReactNode;
  onClick?: () => void;
}

/** A router link that looks like a button (for navigation, never for actions). */
export function ButtonLink({ to, variant = 'primary', size = 'md', icon, block, children, onClick }: ButtonLinkProps) {
  return (
    <Link to={to} className={classes(variant, size, block)} onClick={onClick}>
      {icon}
      <span>{children}</span>
    </Link>
  );
}
