import { useId, useState, type FormEvent } from 'react';
import twoFactor from 'virtual:i18n/twoFactor';
import { FormField } from '../../../components/form/form-field';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { t, useT } from '../../../i18n/runtime';
import { useBeginTwoFactor, useConfirmTwoFactor, useDisableTwoFactor } from '../api/two-factor';
import { QrCode } from './qr-code';

/**
 * Two-factor sign-in on the profile (CONTRACT.md §21): set up with a QR code drawn in the browser
 * (and the key as text), turned on by a first code, the recovery codes shown once to copy or
 * download, turned off with the password.
 */
export function TwoFactorPanel({ enabled }: { enabled: boolean }) {
  useT(twoFactor);
  const id = useId();
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="h4">
        {t('twoFactor.title')}
      </h2>
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : enabled ? (
        <TurnOff />
      ) : (
        <TurnOn onCodes={setCodes} />
      )}
    </section>
  );
}

function TurnOn({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const begin = useBeginTwoFactor();
  const confirm = useConfirmTwoFactor();
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const setup = begin.data ?? null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    setMissing(typed === '');
    if (typed === '') return;
    confirm.mutate(typed, {
      onSuccess: (codes) => {
        notify(t('twoFactor.turnedOn'), 'success');
        onCodes(codes);
      },
    });
  };

  if (!setup) {
    return (
      <>
        <p className="text-body-secondary">{t('twoFactor.intro')}</p>
        <p>{t('twoFactor.off')}</p>
        <button
          type="button"
          className="btn btn-outline-primary"
          disabled={begin.isPending}
          onClick={() => begin.mutate()}
        >
          {t('twoFactor.setUp')}
        </button>
      </>
    );
  }
  const errors = fieldErrorsOf(confirm.error).code ?? (missing ? [t('twoFactor.codeRequired')] : undefined);
  return (
    <form onSubmit={submit} noValidate aria-label={t('twoFactor.setUp')}>
      <p>{t('twoFactor.scan')}</p>
      <div className="d-flex flex-wrap gap-3 align-items-start mb-3">
        <QrCode text={setup.otpauth_url} label={t('twoFactor.qrLabel')} />
        <div className="flex-grow-1" style={{ minWidth: 0 }}>
          <p className="mb-1 small text-body-secondary">{t('twoFactor.secret')}</p>
          <p className="font-monospace text-break" translate="no" data-testid="two-factor-secret">
            {setup.secret}
          </p>
        </div>
      </div>
      <FormField
        label={t('twoFactor.code')}
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        required
        value={code}
        onValueChange={setCode}
        errors={errors}
      />
      <div className="d-flex flex-wrap gap-2">
        <button type="submit" className="btn btn-primary" disabled={confirm.isPending}>
          {t('twoFactor.confirm')}
        </button>
        <button type="button" className="btn btn-outline-secondary" onClick={() => begin.reset()}>
          {t('twoFactor.cancel')}
        </button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `${codes.join('\n')}\n`;
  const copy = () => {
    navigator.clipboard
      ?.writeText(text)
      .then(() => notify(t('twoFactor.copied'), 'success'))
      .catch(() => notify(t('twoFactor.copyFailed'), 'warning'));
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'running-times-recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <>
      <h3 className="h5">{t('twoFactor.codesTitle')}</h3>
      <p>{t('twoFactor.codesIntro')}</p>
      <ul
        className="list-unstyled font-monospace row row-cols-2 g-1 mb-3"
        translate="no"
        aria-label={t('twoFactor.codesTitle')}
      >
        {codes.map((code) => (
          <li key={code} className="col">
            {code}
          </li>
        ))}
      </ul>
      <div className="d-flex flex-wrap gap-2">
        <button type="button" className="btn btn-outline-primary" onClick={copy}>
          {t('twoFactor.copy')}
        </button>
        <button type="button" className="btn btn-outline-primary" onClick={download}>
          {t('twoFactor.download')}
        </button>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          {t('twoFactor.done')}
        </button>
      </div>
    </>
  );
}

function TurnOff() {
  const disable = useDisableTwoFactor();
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMissing(password === '');
    if (password === '') return;
    disable.mutate(password, { onSuccess: () => notify(t('twoFactor.turnedOff'), 'success') });
  };
  const errors = fieldErrorsOf(disable.error).password ?? (missing ? [t('twoFactor.passwordRequired')] : undefined);
  return (
    <form onSubmit={submit} noValidate aria-label={t('twoFactor.disable')}>
      <p>{t('twoFactor.on')}</p>
      <p className="text-body-secondary">{t('twoFactor.disableIntro')}</p>
      <FormField
        label={t('twoFactor.password')}
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onValueChange={setPassword}
        errors={errors}
      />
      <button type="submit" className="btn btn-outline-danger" disabled={disable.isPending}>
        {t('twoFactor.disable')}
      </button>
    </form>
  );
}
