import type { HTMLAttributes } from 'react';
import './display.css';

/** A surface for grouped content; `light` for content cards in light sections. */
export function Card({
  raised,
  light,
  className,
  ...rest
}: HTMLAttributes<HTMLDivElement> & { raised?: boolean; light?: boolean }) {
  const classes = ['card', raised ? 'card--raised' : '', light ? 'card--light' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return <div className={classes} {...rest} />;
}
