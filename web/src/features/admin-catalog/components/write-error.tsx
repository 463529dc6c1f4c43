import { useI18n } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/ui';

export function WriteError({ errors }: { errors: unknown[] }) {
  const { t } = useI18n();
  const error = errors.find(Boolean);
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {errorMessage(error, t('common.error'))}
    </p>
  );
}
