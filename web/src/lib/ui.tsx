import type { ReactNode } from 'react';
import { ApiError } from './api-client';
import { useI18n, type Locale } from './i18n';
import { translate } from './i18n-core';
import { appMessages } from './messages';

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
  const { t, locale } = useI18n();
  const message = errorText(error, locale, t('common.error'));
  return (
    <div
      className="state state-error"
      role="alert"
      data-error-code={error instanceof ApiError ? error.code : undefined}
    >
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

/**
 * What a reader is told about a failed call: the translation of the server's `code` when there is
 * one; otherwise the server's own (English) message only under `en`, and never a 5xx's; under any
 * other language a translated sentence naming the code, so no raw English appears under zh-TW.
 */
export function errorText(error: unknown, locale: Locale, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  const known = translate(appMessages, locale, `errors.${error.code}`);
  if (known) return known;
  if (locale === 'en' && error.status < 500 && error.message) return error.message;
  return translate(appMessages, locale, 'errors.generic', { code: error.code }) ?? fallback;
}

/** errorText in the page's current language (the I18nProvider keeps `<html lang>` in step). */
export function errorMessage(error: unknown, fallback: string): string {
  const lang = document.documentElement.lang === 'zh-TW' ? 'zh-TW' : 'en';
  return errorText(error, lang, fallback);
}
