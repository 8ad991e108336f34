import { observer } from 'mobx-react-lite';
import { Compass } from 'lucide-react';
import { ButtonLink } from '../../components';
import { paths } from '../../config/paths';
import { useStore } from '../../stores';
import './message-pages.css';

/** Any unknown path (and a static page that does not exist). */
export const NotFoundPage = observer(function NotFoundPage() {
  const { t } = useStore();
  return (
    <section className="container message-page">
      <Compass aria-hidden="true" className="message-page__icon" />
      <h1>{t('shell.notFound.title')}</h1>
      <p>{t('shell.notFound.text')}</p>
      <ButtonLink to={paths.home}>{t('shell.notFound.home')}</ButtonLink>
    </section>
  );
});
