import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { X } from 'lucide-react';
import { useI18n } from './i18n';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.offsetParent !== null || el === document.activeElement,
  );
}

export interface DialogProps {
  /** the heading; it also names the dialog (aria-labelledby) */
  title: ReactNode;
  /** Escape, the close button and the caller's own cancel all end here; the caller unmounts it */
  onClose(): void;
  children: ReactNode;
  /** buttons under the content (confirm, cancel) */
  actions?: ReactNode;
  size?: 'narrow' | 'normal' | 'wide';
  className?: string;
  testId?: string;
  /** keys the dialog handles itself (e.g. `?` closing the shortcut help) */
  onKeyDown?(e: KeyboardEvent<HTMLDialogElement>): void;
}

/**
 * The app's one modal dialog, on the native <dialog> (the page behind is inert): it opens when
 * mounted, takes the focus (the control marked `data-autofocus`, else the first control of its body,
 * else its close button), keeps Tab and Shift+Tab inside, closes on Escape, and gives the focus back
 * to what had it before. (React's `autoFocus` runs while the dialog is still closed, so it cannot.)
 */
export function Dialog({
  title,
  onClose,
  children,
  actions,
  size = 'normal',
  className,
  testId,
  onKeyDown,
}: DialogProps) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    if (dialog) {
      const all = focusables(dialog);
      const first =
        dialog.querySelector<HTMLElement>('[data-autofocus]:not([disabled])') ??
        all.find((el) => !el.closest('.dialog-head')) ??
        all[0];
      first?.focus();
    }
    return () => {
      if (dialog?.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const trapTab = (e: KeyboardEvent<HTMLDialogElement>) => {
    onKeyDown?.(e);
    if (e.defaultPrevented || e.key !== 'Tab' || !ref.current) return;
    const all = focusables(ref.current);
    if (all.length === 0) return;
    const first = all[0]!;
    const last = all[all.length - 1]!;
    const active = document.activeElement;
    if (e.shiftKey && (active === first || !ref.current.contains(active))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || !ref.current.contains(active))) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className={['dialog', `dialog-${size}`, className].filter(Boolean).join(' ')}
      aria-labelledby={titleId}
      aria-modal="true"
      data-testid={testId}
      onCancel={(e) => {
        // Escape: the caller decides (it unmounts the dialog), the browser does not close it alone
        e.preventDefault();
        onClose();
      }}
      onKeyDown={trapTab}
    >
      <header className="dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} onClick={onClose}>
          <X size={18} aria-hidden="true" />
        </button>
      </header>
      <div className="dialog-body">{children}</div>
      {actions && <div className="dialog-actions">{actions}</div>}
    </dialog>
  );
}

/** A question with one confirming action ("Mark 12 articles as read?"), on the same dialog. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  pending,
  danger,
  error,
  testId,
}: {
  title: ReactNode;
  children?: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onClose(): void;
  pending?: boolean;
  danger?: boolean;
  /** an already translated error of the confirmed action */
  error?: string | null;
  testId?: string;
}) {
  const { t } = useI18n();
  const confirmRef = useRef<HTMLButtonElement>(null);
  // a confirmation that waits for something (a count) takes the focus once it can be pressed
  useEffect(() => {
    if (!pending) confirmRef.current?.focus();
  }, [pending]);
  return (
    <Dialog
      title={title}
      onClose={onClose}
      size="narrow"
      testId={testId}
      actions={
        <>
          <button
            type="button"
            className={danger ? 'primary danger' : 'primary'}
            onClick={onConfirm}
            disabled={pending}
            data-testid="confirm"
            ref={confirmRef}
            data-autofocus
          >
            {confirmLabel}
          </button>
          <button type="button" onClick={onClose} data-testid="cancel">
            {t('common.cancel')}
          </button>
        </>
      }
    >
      {children}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
