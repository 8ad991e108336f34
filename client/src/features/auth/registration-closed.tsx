import { Link } from 'react-router';
import { Card } from '../../components';
import { paths } from '../../config/paths';
import { useStore } from '../../stores';
import { FormAlert } from './form-alert';

/** /register while the site takes no new accounts: says so and leads home. */
export function RegistrationClosed() {
  const { t } = useStore();
  return (
    <Card raised className="auth-card">
      <h1>{t('shell.auth.register.title')}</h1>
      <FormAlert message={t('shell.auth.register.disabled')} />
      <p className="auth-card__footer">
        <Link to={paths.home}>{t('shell.auth.backHome')}</Link>
      </p>
    </Card>
  );
}
