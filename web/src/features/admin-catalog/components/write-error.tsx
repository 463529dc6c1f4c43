import { useI18n } from '../../../lib/i18n';
import { errorMessage, latestError } from '../../../lib/ui';

/** The failure of the section's latest write, if it failed. */
export function WriteError({ writes }: { writes: { error: unknown; submittedAt: number }[] }) {
  const { t } = useI18n();
  const error = latestError(writes);
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {errorMessage(error, t('common.error'))}
    </p>
  );
}
