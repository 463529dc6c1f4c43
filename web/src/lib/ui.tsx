import type { ReactNode } from 'react';
import { ApiError } from './api-client';
import { useI18n } from './i18n';

/** The three designed states every panel has besides its data. */
export function Loading() {
  const { t } = useI18n();
  return (
    <p className="state state-loading" role="status">
      {t('common.loading')}
    </p>
  );
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useI18n();
  const message = error instanceof ApiError ? error.message : t('common.error');
  return (
    <div className="state state-error" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state state-empty">{children}</p>;
}

/** A button that shows only an icon: its accessible name is `label`. */
export function IconButton({
  label,
  onClick,
  disabled,
  danger,
  testId,
  children,
}: {
  label: string;
  onClick?: () => void;
  disabled?: boolean;
  danger?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={danger ? 'icon-button danger' : 'icon-button'}
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
      data-testid={testId}
    >
      {children}
    </button>
  );
}

/** The error of the latest of several writes: an older failure is not shown after a later success. */
export function latestError(writes: { error: unknown; submittedAt: number }[]): unknown {
  if (writes.length === 0) return null;
  return writes.reduce((a, b) => (b.submittedAt > a.submittedAt ? b : a)).error ?? null;
}

export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status !== 500 ? error.message : fallback;
}
