import { Link, useLocation } from 'react-router';
import { LogIn } from 'lucide-react';
import { useI18n } from '../../../lib/i18n';

/** What a guest sees on pressing f or m: those keys need an account, and where to sign in. */
export function SignInHint() {
  const { t } = useI18n();
  const { pathname, search } = useLocation();
  return (
    <p className="sign-in-hint" role="status" data-testid="sign-in-hint">
      {t('articles.signInToKeep')}{' '}
      <Link to={`/login?next=${encodeURIComponent(pathname + search)}`}>
        <LogIn size={14} aria-hidden="true" /> {t('nav.login')}
      </Link>
    </p>
  );
}
