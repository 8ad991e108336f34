import type { ReactNode } from 'react';
import './message-pages.css';

/** A centred icon, title, line of text and actions: placeholders and result pages share this look. */
export function MessagePage({
  icon,
  title,
  text,
  children,
}: {
  icon: ReactNode;
  title: string;
  text?: string;
  children?: ReactNode;
}) {
  return (
    <section className="container message-page">
      {icon}
      <h1>{title}</h1>
      {text ? <p>{text}</p> : null}
      {children ? <div className="message-page__actions">{children}</div> : null}
    </section>
  );
}
