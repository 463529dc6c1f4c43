import '../auth.css';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useI18n } from '../../../lib/i18n';
import { useSessionActions } from '../../../lib/session';
import { AuthForm } from './auth-form';
import { useRegistration } from '../api/get-registration';

/** Only same-site paths are followed after signing in. */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/articles';
}

export default function LoginPage() {
  const { t } = useI18n();
  const { login } = useSessionActions();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const registration = useRegistration().data;
  const signUpOpen = registration?.registration !== 'closed';

  return (
    <AuthForm
      title={t('auth.login.title')}
      submitLabel={t('auth.login.submit')}
      known={{ status: 401, message: t('auth.login.failed') }}
      onSubmit={async (form) => {
        await login(String(form.get('email')), String(form.get('password')));
        await navigate(safeNext(params.get('next')), { replace: true });
      }}
      footer={
        signUpOpen ? (
          <>
            {t('auth.login.noAccount')} <Link to="/register">{t('nav.register')}</Link>
          </>
        ) : undefined
      }
    >
      <label>
        {t('auth.password')}
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {registration &&
        (registration.password_reset_by_email ? (
          <Link to="/forgot-password" className="small">
            {t('auth.forgot.link')}
          </Link>
        ) : (
          <p className="muted small">{t('auth.forgot.askAdmin')}</p>
        ))}
    </AuthForm>
  );
}
