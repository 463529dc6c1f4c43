import { Link, useNavigate } from 'react-router';
import { useI18n } from '../../../lib/i18n';
import { useSessionActions } from '../../../lib/session';
import { AuthForm } from './auth-form';
import { useRegistration } from '../api/get-registration';

export default function RegisterPage() {
  const { t, locale } = useI18n();
  const { register } = useSessionActions();
  const navigate = useNavigate();
  const registration = useRegistration();

  if (registration.data?.registration === 'closed')
    return (
      <section className="auth-page">
        <h1>{t('auth.register.title')}</h1>
        <p role="status">{t('auth.register.closed')}</p>
        <p>
          {t('auth.register.hasAccount')} <Link to="/login">{t('nav.login')}</Link>
        </p>
      </section>
    );

  return (
    <AuthForm
      title={t('auth.register.title')}
      submitLabel={t('auth.register.submit')}
      known={{ status: 409, message: t('auth.register.exists') }}
      onSubmit={async (form) => {
        await register(
          String(form.get('email')),
          String(form.get('password')),
          String(form.get('display_name') ?? '').trim() || undefined,
          locale,
        );
        await navigate('/settings', { replace: true });
      }}
      footer={
        <>
          {t('auth.register.hasAccount')} <Link to="/login">{t('nav.login')}</Link>
        </>
      }
    >
      <label>
        {t('auth.password')}
        <input
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          required
          aria-describedby="pw-hint"
        />
        <small id="pw-hint">{t('auth.passwordHint')}</small>
      </label>
      <label>
        {t('auth.displayName')}
        <input name="display_name" type="text" autoComplete="nickname" maxLength={100} />
      </label>
    </AuthForm>
  );
}
